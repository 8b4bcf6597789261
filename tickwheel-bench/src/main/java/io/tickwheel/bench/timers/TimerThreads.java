package io.tickwheel.bench.timers;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A thread factory whose threads carry {@link BenchTimer#THREAD_MARKER} in their names, so
 * that the simulator can find a timer's threads and read their CPU time.
 *
 * <p>Threading: thread-safe (via an atomic counter).
 */
public final class TimerThreads implements ThreadFactory {

    private final String prefix;
    private final AtomicInteger count = new AtomicInteger();

    private TimerThreads(final String name) {
        this.prefix = BenchTimer.THREAD_MARKER + "-" + name + "-";
    }

    /**
     * Makes a factory for one timer.
     *
     * @param name a short name of the timer, used in the thread names
     * @return a factory of daemon threads named {@code bench-timer-<name>-<n>}
     */
    public static ThreadFactory named(final String name) {
        return new TimerThreads(name);
    }

    @Override
    public Thread newThread(final Runnable r) {
        Thread thread = new Thread(r, prefix + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
