package io.tickwheel.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Function;

/**
 * One scheduled task: the public {@link Timeout} handle, and at the same time the node the wheel
 * links into its buckets, so scheduling allocates exactly one object: 32 bytes with compressed
 * oops (header 12, state 4, deadline 8, the timer and the task 8). It keeps no link and no
 * reference to the engine: buckets are arrays ({@link BucketArrays}), and the engine is found
 * from the public timer when a cancel needs it ({@link #of}).
 *
 * <h2>State machine</h2>
 * <pre>
 *   PENDING --tryExpire (worker)--------------&gt; EXPIRED    task handed to run, once
 *   PENDING --cancel / stop / lost race-------&gt; CANCELLED  task never runs
 * </pre>
 * Both transitions are one CAS from {@code PENDING}, so exactly one of them happens, once: the
 * thread whose CAS succeeds owns the consequence (running the task, or counting the cancel and
 * calling {@link TimerTask#cancelled(Timeout)}); every other thread sees its CAS fail and does
 * nothing.
 *
 * <p>Threading: {@code state} is thread-safe (via CAS and acquire reads); every other field
 * is final and published to the worker by the hand-off queue's release store of the node (see
 * {@link NodeQueue#offer}).
 */
public final class TimeoutNode implements Timeout {

    static final int PENDING = 0;
    static final int EXPIRED = 1;
    static final int CANCELLED = 2;

    private static final VarHandle STATE;

    /** Installed once by the public timers' class initialisers; until then no node has a timer. */
    private static volatile Function<Timer, TimerCore> coreOfTimer;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(TimeoutNode.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The public timer; holding it keeps a timer with pending timeouts from being collected. */
    private final Timer timer;
    private final TimerTask task;
    /** Absolute deadline on the core's clock; compare only by difference. */
    final long deadlineNanos;
    /** Written by CAS from PENDING only; read with acquire. */
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    /**
     * Installs how a node finds the engine of its public timer. A node keeps the public timer
     * (which must stay reachable while it is pending) but not also the engine: one reference
     * less is what makes a node 32 bytes rather than 40.
     *
     * @param lookup returns the engine of a public timer, or null for a timer of another kind
     */
    public static synchronized void installCoreLookup(final Function<Timer, TimerCore> lookup) {
        Checks.notNull(lookup, "lookup");
        // Set once: a second, different lookup (this package is open on the class path) would
        // make cancels go uncounted.
        if (coreOfTimer != null && coreOfTimer != lookup) {
            throw new IllegalStateException("a different core lookup is installed already");
        }
        coreOfTimer = lookup;
    }

    /** The engine of {@code timer}, or null for a node built without one (structure tests). */
    static TimerCore of(final Timer timer) {
        if (timer == null) {
            return null;
        }
        Function<Timer, TimerCore> lookup = coreOfTimer;
        TimerCore core = lookup == null ? null : lookup.apply(timer);
        // Test rigs drive a bare core through an owner of their own; the public timers never get here.
        return core != null || !(timer instanceof CoreOwner owner) ? core : owner.core();
    }

    TimeoutNode(final Timer timer, final TimerTask task, final long deadlineNanos) {
        this.timer = timer;
        this.task = task;
        this.deadlineNanos = deadlineNanos;
    }

    private int getAcquireState() {
        return (int) STATE.getAcquire(this);
    }

    private boolean casState(final int expected, final int value) {
        return STATE.compareAndSet(this, expected, value);
    }

    /**
     * Moves this node from pending to expired.
     *
     * @return true if this call did it, so the caller must hand the task to run
     */
    boolean tryExpire() {
        return casState(PENDING, EXPIRED);
    }

    /**
     * Moves this node from pending to cancelled without counting it or calling back: for the
     * worker's drain on stop, which counts and reports its nodes itself.
     *
     * @return true if this call did it
     */
    boolean tryCancelQuietly() {
        return casState(PENDING, CANCELLED);
    }

    @Override
    public Timer timer() {
        return timer;
    }

    @Override
    public TimerTask task() {
        return task;
    }

    @Override
    public boolean isExpired() {
        return getAcquireState() == EXPIRED;
    }

    @Override
    public boolean isCancelled() {
        return getAcquireState() == CANCELLED;
    }

    @Override
    public boolean cancel() {
        if (!casState(PENDING, CANCELLED)) {
            return false;
        }
        // The node stays in its bucket until the worker drops it; the core only counts it, which
        // is what lets the worker decide when purging is worth a wake-up.
        TimerCore core = of(timer);
        if (core != null) {
            core.onCancelled();
        }
        notifyCancelled();
        return true;
    }

    /** Calls {@link TimerTask#cancelled(Timeout)}, logging anything it throws. */
    void notifyCancelled() {
        try {
            task.cancelled(this);
        } catch (Throwable t) {
            logger().log(System.Logger.Level.WARNING,
                    "An exception was thrown by TimerTask.cancelled() of " + describe(task), t);
        }
    }

    /** Runs the task, logging anything it throws: a task must never kill the thread running it. */
    void runTask() {
        try {
            task.run(this);
        } catch (Throwable t) {
            logger().log(System.Logger.Level.WARNING, "An exception was thrown by TimerTask " + describe(task), t);
        }
    }

    /**
     * The task's {@code toString()} for a log message, or its class and identity if that throws:
     * a broken {@code toString()} must not turn a logged task failure into a worker failure.
     */
    static String describe(final Object task) {
        try {
            return String.valueOf(task);
        } catch (Throwable t) {
            return task.getClass().getName() + '@' + Integer.toHexString(System.identityHashCode(task))
                    + " (its toString() threw " + t.getClass().getName() + ')';
        }
    }

    private System.Logger logger() {
        TimerCore core = of(timer);
        return core != null ? core.logger() : System.getLogger(TimeoutNode.class.getName());
    }

    @Override
    public String toString() {
        TimerCore core = of(timer);
        long now = core != null ? core.clock().nanoTime() : System.nanoTime();
        long remaining = deadlineNanos - now;
        StringBuilder text = new StringBuilder(96).append("Timeout(deadline: ");
        if (remaining > 0) {
            text.append(remaining).append(" ns later");
        } else if (remaining < 0) {
            text.append(-remaining).append(" ns ago");
        } else {
            text.append("now");
        }
        int current = getAcquireState();
        if (current == CANCELLED) {
            text.append(", cancelled");
        } else if (current == EXPIRED) {
            text.append(", expired");
        }
        return text.append(", task: ").append(task).append(')').toString();
    }
}
