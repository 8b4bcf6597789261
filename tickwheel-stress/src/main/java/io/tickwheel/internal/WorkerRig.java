package io.tickwheel.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerTask;
import io.tickwheel.stress.Turns;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A real {@link TimerCore} whose worker runs one pass of its real loop on a jcstress actor, so a
 * test can race callers against the worker's own code (transfer, advance, expire, exit drain)
 * without a thread of its own and without sleeping.
 *
 * <h2>How a pass ends</h2>
 * The worker reads the clock before it parks. When the actor running {@link #runPass()} reads
 * the rig's clock, the clock answers {@link #WORKER_NOW} and asks the core to stop (the leak
 * guard's {@link TimerCore#stopAsync()}), so the loop finishes its pass without parking and the
 * worker's exit drain runs exactly as after {@code stop()}: it cancels and collects what is still
 * pending. Callers always read the origin, 0. So a timeout scheduled with delay 0 is due in the
 * pass, and one {@link #FAR} out is not.
 *
 * <h2>The worker thread</h2>
 * The core asks its thread factory for a thread once; the rig keeps the worker and returns a
 * thread whose {@code start()} does nothing. Unparks aimed at it are no-ops, which is harmless:
 * the pass never parks.
 *
 * <p>Threading: {@link #schedule} and the counters from any thread; {@link #runPass()} from one
 * actor, once; {@link #drained()} after the pass (jcstress's arbiter ordering).
 */
final class WorkerRig {

    /** The wheel's tick. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** What the worker's clock reads during a pass: ten ticks after the origin. */
    static final long WORKER_NOW = 10 * TICK_NANOS;
    /** A delay that is never due during a pass. */
    static final long FAR = TimeUnit.HOURS.toNanos(1);

    /** Which wheel the worker drives. */
    enum Wheel {
        HASHED,
        HIERARCHICAL;

        private static final Turns TURNS = new Turns();

        /** The wheels in turn, one per call: for states that cover both. */
        static Wheel next() {
            return TURNS.next(2) == 0 ? HASHED : HIERARCHICAL;
        }
    }

    private final TimerCore core;
    /** What nodes keep: the rig's stand-in timer and the core, which a cancel is counted by. */
    private final TimeoutOwner owner;
    private Worker worker;
    private volatile Thread passThread;

    WorkerRig(final Wheel wheel) {
        this(wheel, 0);
    }

    WorkerRig(final Wheel wheel, final long maxPending) {
        TimerOptions options = wheel == Wheel.HASHED
                ? new TimerOptions(TimerOptions.Kind.HASHED, "WorkerRig").wheelSize(8)
                : new TimerOptions(TimerOptions.Kind.HIERARCHICAL, "WorkerRig").wheelSize(6);
        core = new TimerCore(options.tickNanos(TICK_NANOS).clock(this::nanoTime).threadFactory(this::newThread)
                .maxPendingTimeouts(maxPending));
        owner = core.bind(new StandIn());
        core.start();
    }

    private Thread newThread(final Runnable runnable) {
        worker = (Worker) runnable;
        return new IdleThread();
    }

    private long nanoTime() {
        if (Thread.currentThread() != passThread) {
            return 0;
        }
        core.stopAsync();
        return WORKER_NOW;
    }

    /**
     * Schedules a task through the core, as {@code newTimeout} does.
     *
     * @param task the task
     * @param delayNanos the delay
     * @return the timeout
     */
    TimeoutNode schedule(final TimerTask task, final long delayNanos) {
        return core.schedule(owner, task, delayNanos);
    }

    /** Runs the worker's loop on the calling thread for one pass, then its exit drain. */
    void runPass() {
        passThread = Thread.currentThread();
        worker.run();
    }

    /**
     * Returns the core's count of pending timeouts, as {@code pendingTimeouts()} does.
     *
     * @return the count
     */
    long pendingTimeouts() {
        return core.pendingTimeouts();
    }

    /**
     * Returns how many timeouts the worker retired (expired, or cancelled by its exit drain).
     *
     * @return the retired counter
     */
    long retired() {
        return core.retiredCount();
    }

    /**
     * Returns how many timeouts were cancelled by callers (cancel(), or a lost race with stop).
     *
     * @return the cancel counter
     */
    long cancelCount() {
        return core.cancelledCount();
    }

    /**
     * Returns the core's statistics, as {@code stats()} does.
     *
     * @return the snapshot
     */
    StatsSnapshot stats() {
        return core.stats();
    }

    /**
     * Returns the timeouts the worker's exit drain cancelled, what {@code stop()} would return.
     *
     * @return the drained set, or null before the pass ended
     */
    Set<Timeout> drained() {
        return worker.unprocessed();
    }

    /** The rig's stand-in for a public timer, what {@code Timeout.timer()} returns. */
    private final class StandIn implements Timer {
        @Override
        public Timeout newTimeout(final TimerTask task, final long delay, final TimeUnit unit) {
            return schedule(task, unit.toNanos(delay));
        }

        @Override
        public Set<Timeout> stop() {
            return core.stop();
        }

        @Override
        public long pendingTimeouts() {
            return core.pendingTimeouts();
        }
    }

    /** The worker thread the core holds; it never runs, the pass runs on an actor instead. */
    private static final class IdleThread extends Thread {
        IdleThread() {
            super("tickwheel-stress-idle");
            setDaemon(true);
        }

        @Override
        public synchronized void start() {
            // Deliberately empty: see the class comment.
        }
    }
}
