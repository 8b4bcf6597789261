package io.tickwheel.internal;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts live timers and notices the ones dropped without {@code stop()}.
 *
 * <p>Each timer owns a thread, so more than {@value #INSTANCE_LIMIT} of them is almost always a
 * timer created per request or per connection: that is logged once per JVM. A public timer
 * object that becomes unreachable while its worker still runs was leaked: the worker holds only
 * the {@link TimerCore}, never the public object (pending timeouts do hold it, so a timer is not
 * collected while it has work to do). The {@link Cleaner} then reports the leak, if asked to,
 * and stops the worker so its thread is not leaked too.
 *
 * <p>Threading: thread-safe (via atomics; cleaning actions run on the Cleaner's thread).
 */
final class LeakGuard {

    static final int INSTANCE_LIMIT = 64;

    private static final Cleaner CLEANER = Cleaner.create(new NamedThreadFactory("tickwheel-cleaner-", true));
    private static final AtomicInteger LIVE = new AtomicInteger();
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private LeakGuard() {
    }

    /**
     * Counts a new timer and watches its public object.
     *
     * @param facade the public timer object users hold
     * @param core its engine, which must not reference {@code facade}
     * @param reportLeak whether to log a leak report if {@code facade} is collected unstopped
     * @return the handle whose {@code clean()} the core calls on stop
     */
    static Cleaner.Cleanable watch(final Object facade, final TimerCore core, final boolean reportLeak) {
        int live = LIVE.incrementAndGet();
        if (live > INSTANCE_LIMIT && WARNED.compareAndSet(false, true)) {
            core.logger().log(System.Logger.Level.ERROR, "More than " + INSTANCE_LIMIT
                    + " tickwheel timers are alive (" + live + "). Each owns a thread; share one timer "
                    + "per JVM (for example Timers.shared()) instead of creating one per task.");
        }
        return CLEANER.register(facade, new Release(core, reportLeak));
    }

    /** Number of timers created and neither stopped nor collected. */
    static int live() {
        return LIVE.get();
    }

    /** Lets a test see the one-time warning again. */
    static void resetWarning() {
        WARNED.set(false);
    }

    /** Runs once: on stop() (core already stopped), or on the Cleaner thread after a leak. */
    private static final class Release implements Runnable {
        private final TimerCore core;
        private final boolean reportLeak;

        Release(final TimerCore core, final boolean reportLeak) {
            this.core = core;
            this.reportLeak = reportLeak;
        }

        @Override
        public void run() {
            LIVE.decrementAndGet();
            if (core.stopRequested()) {
                return;
            }
            if (reportLeak) {
                core.logger().log(System.Logger.Level.ERROR, "LEAK: a " + core.name()
                        + " was garbage-collected without stop() being called; stopping its worker. "
                        + "Call stop() (or close()) on timers you no longer need.");
            }
            core.stopAsync();
        }
    }
}
