package io.tickwheel.bench.timers;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Adapts the JDK's {@link ScheduledThreadPoolExecutor} with one thread and
 * {@code setRemoveOnCancelPolicy(true)}, so a cancelled task leaves the queue at once.
 *
 * <p>Threading: thread-safe (via the executor).
 */
public final class StpeTimer implements BenchTimer {

    private final ScheduledThreadPoolExecutor executor;

    /** Makes the executor; its one thread starts with the first task. */
    public StpeTimer() {
        executor = new ScheduledThreadPoolExecutor(1, TimerThreads.named("stpe"));
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Object prepare(final Runnable task) {
        return task;
    }

    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // reason: the future is the handle; the task
                                                  // never fails, so it carries no error to lose
    public Object schedule(final Object prepared, final long delayNanos) {
        return executor.schedule((Runnable) prepared, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean cancel(final Object handle) {
        return ((Future<?>) handle).cancel(false);
    }

    @Override
    public long pending() {
        return executor.getQueue().size();
    }

    @Override
    public void stop() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String version() {
        return "JDK " + Runtime.version();
    }
}
