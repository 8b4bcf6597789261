package io.tickwheel.bench.timers;

import java.util.Timer;
import java.util.TimerTask;

/**
 * Adapts {@link java.util.Timer}. It takes whole milliseconds, so delays are rounded up; it
 * needs one {@link TimerTask} object per schedule, which is its timeout object.
 *
 * <p>Threading: thread-safe (via the timer's queue lock).
 */
public final class JdkTimer implements BenchTimer {

    private final Timer timer = new Timer(THREAD_MARKER + "-jdk-timer", true);

    @Override
    public Object prepare(final Runnable task) {
        return task;
    }

    @Override
    public Object schedule(final Object prepared, final long delayNanos) {
        RunnableTask task = new RunnableTask((Runnable) prepared);
        timer.schedule(task, BenchTimer.ceilMillis(delayNanos));
        return task;
    }

    @Override
    public boolean cancel(final Object handle) {
        return ((TimerTask) handle).cancel();
    }

    @Override
    public long pending() {
        return -1;
    }

    @Override
    public void stop() {
        timer.cancel();
    }

    @Override
    public String version() {
        return "JDK " + Runtime.version();
    }

    /** The per-schedule task object java.util.Timer requires. */
    private static final class RunnableTask extends TimerTask {
        private final Runnable task;

        RunnableTask(final Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            task.run();
        }
    }
}
