package io.tickwheel.internal;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts live timers and notices the ones dropped without {@code stop()}.
 *
 * <p>Each timer owns a thread, so more than {@value #INSTANCE_LIMIT} of them is almost always a
 * timer created per request or per connection: that is logged once per JVM. The system property
 * {@value SystemProperties#INSTANCE_WARNING_THRESHOLD} moves the threshold (0 turns it off); it
 * is read at each timer's creation. A public timer
 * object that becomes unreachable while its worker still runs was leaked: the worker holds only
 * the engine, never the public object (pending timeouts do hold it, so a timer is not
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

    /** What the guard stops: the timer's lifecycle, which must not reference the public object. */
    interface Target {
        /** Whether the timer was stopped already (then a collected facade is no leak). */
        boolean stopRequested();

        /** Stops the timer without waiting: the Cleaner's thread must not block. */
        void stopAsync();
    }

    /**
     * Counts a new timer and watches its public object.
     *
     * @param facade the public timer object users hold
     * @param target what to stop if {@code facade} is collected unstopped
     * @param name the timer's name, for the report
     * @param logger where the report goes
     * @param reportLeak whether to log a leak report if {@code facade} is collected unstopped
     * @return the handle whose {@code release()} the lifecycle calls on stop
     */
    static Watch watch(final Object facade, final Target target, final String name,
            final System.Logger logger, final boolean reportLeak) {
        int live = LIVE.incrementAndGet();
        int threshold = SystemProperties.instanceWarningThreshold();
        if (threshold > 0 && live > threshold && WARNED.compareAndSet(false, true)) {
            logger.log(System.Logger.Level.ERROR, "More than " + threshold
                    + " tickwheel timers are alive (" + live + "). Each owns a thread; share one timer "
                    + "per JVM (for example Timers.shared()) instead of creating one per task.");
        }
        Release release = new Release(target, name, logger, reportLeak);
        return new Watch(release, CLEANER.register(facade, release));
    }

    /** Number of timers created and neither stopped nor collected. */
    static int live() {
        return LIVE.get();
    }

    /** Lets a test see the one-time warning again. */
    static void resetWarning() {
        WARNED.set(false);
    }

    /** A watched timer: what its lifecycle releases when it stops. */
    static final class Watch {
        private final Release release;
        private final Cleaner.Cleanable cleanable;

        Watch(final Release release, final Cleaner.Cleanable cleanable) {
            this.release = release;
            this.cleanable = cleanable;
        }

        /**
         * Takes the timer out of the live count and stops watching it; any number of calls. The
         * count comes first and on its own: the Cleaner runs its action at most once, after it
         * unregistered it, so an overflow (a deep caller's stop()) inside that run would have lost
         * the count for good, and a retried stop() could not take it back.
         */
        void release() {
            release.uncount();
            cleanable.clean();
        }
    }

    /** Runs once: on stop() (timer already stopped), or on the Cleaner thread after a leak. */
    private static final class Release implements Runnable {
        private final Target target;
        private final String name;
        private final System.Logger logger;
        private final boolean reportLeak;
        /** Guarded by this; set right after the decrement, with no call between the two. */
        private boolean uncounted;

        Release(final Target target, final String name, final System.Logger logger, final boolean reportLeak) {
            this.target = target;
            this.name = name;
            this.logger = logger;
            this.reportLeak = reportLeak;
        }

        /**
         * Decrements the live count once, however often called and from whichever thread. An
         * overflow can strike at the decrement's entry (nothing done, a retry does it) but not
         * after its atomic add returns: nothing between that and the flag's write is a call.
         */
        void uncount() {
            synchronized (this) {
                if (!uncounted) {
                    LIVE.decrementAndGet();
                    uncounted = true;
                }
            }
        }

        @Override
        public void run() {
            uncount();
            if (target.stopRequested()) {
                return;
            }
            if (reportLeak) {
                logger.log(System.Logger.Level.ERROR, "LEAK: a " + name
                        + " was garbage-collected without stop() being called; stopping its worker. "
                        + "Call stop() (or close()) on timers you no longer need.");
            }
            target.stopAsync();
        }
    }
}
