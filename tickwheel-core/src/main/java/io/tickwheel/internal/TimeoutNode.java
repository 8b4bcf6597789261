package io.tickwheel.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One scheduled task: the public {@link Timeout} handle, and at the same time the node the wheel
 * links into its buckets, so scheduling allocates exactly one object: 32 bytes with compressed
 * oops (header 12, state 4, deadline 8, the owner and the task 8). It keeps no link (buckets are
 * arrays, {@link BucketArrays}) and one reference for both the public timer and the engine: its
 * {@link TimeoutOwner}, an interface below the engine, so this class never names the engine.
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
 * <h2>A cancelled timeout lets go of its task</h2>
 * The node stays in its bucket until the worker drops it (a purge waits for enough cancels to pay
 * for its pass), so a task it kept would stay reachable, with whatever it holds (a request's
 * context), for as long as that. {@link #cancel()} therefore clears {@code task} as soon as the
 * task's {@link TimerTask#cancelled(Timeout)} has returned; {@link #task()} then returns null, and
 * {@link #toString()} says the task was released instead of naming it.
 * Timeouts that {@code stop()} returns keep their tasks (callers reschedule them); the timer lets go
 * of them anyway, as it drops its wheel.
 *
 * <p>Threading: {@code state} is thread-safe (via CAS and acquire reads). {@code task} is written
 * once more after construction, to null, by the one thread whose cancel CAS succeeded (release);
 * the worker reads it only after its own expire CAS succeeded, which excludes that write, and
 * other readers load it with acquire and accept either value. Every other field is final. The
 * node is published to the worker by the hand-off queue's release store (see {@link NodeQueue#offer}).
 */
public final class TimeoutNode implements Timeout {

    static final int PENDING = 0;
    static final int EXPIRED = 1;
    static final int CANCELLED = 2;

    private static final VarHandle STATE;
    private static final VarHandle TASK;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(TimeoutNode.class, "state", int.class);
            TASK = lookup.findVarHandle(TimeoutNode.class, "task", TimerTask.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The public timer and its engine, or null for a node built without one (structure tests);
     * holding it keeps a timer with pending timeouts from being collected.
     */
    private final TimeoutOwner owner;
    /** Cleared (release) after a cancel() delivered cancelled(); see the class comment. */
    private TimerTask task;
    /** Absolute deadline on the core's clock; compare only by difference. */
    final long deadlineNanos;
    /** Written by CAS from PENDING only; read with acquire. */
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    TimeoutNode(final TimeoutOwner owner, final TimerTask task, final long deadlineNanos) {
        this.owner = owner;
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
        return owner == null ? null : owner.timer();
    }

    /**
     * Returns the task; null once {@link #cancel()} has delivered {@link TimerTask#cancelled(Timeout)}
     * (inside that callback it is still there), so that a cancelled timeout retains nothing.
     *
     * @return the task, or null after a completed cancel()
     */
    @Override
    public TimerTask task() {
        return (TimerTask) TASK.getAcquire(this);
    }

    /** Lets go of the task; only the thread whose cancel CAS succeeded calls this. */
    private void releaseTask() {
        // Release: pairs with the acquire load in task().
        TASK.setRelease(this, (TimerTask) null);
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
        if (owner != null) {
            owner.onCancelled();
        }
        try {
            notifyCancelled();
        } finally {
            releaseTask();
        }
        return true;
    }

    /**
     * Cancels this node for a newTimeout that lost its race with stop() and throws instead of
     * returning it: nobody will ever see the task again, so it is let go at once.
     *
     * @return true if this call did it
     */
    boolean tryCancelUnreturned() {
        if (!tryCancelQuietly()) {
            return false;
        }
        releaseTask();
        return true;
    }

    /** Calls {@link TimerTask#cancelled(Timeout)}, logging anything it throws. */
    void notifyCancelled() {
        TimerTask current = task();
        if (current == null) {
            return;
        }
        try {
            current.cancelled(this);
        } catch (Throwable t) {
            logger().log(System.Logger.Level.WARNING,
                    "An exception was thrown by TimerTask.cancelled() of " + describe(current), t);
        }
    }

    /**
     * Runs the task, logging anything it throws: a task must never kill the thread running it.
     *
     * @return false if the task threw
     */
    boolean runTask() {
        // Plain read: only after our expire CAS won, so no cancel ever clears it.
        TimerTask current = task;
        try {
            current.run(this);
            return true;
        } catch (Throwable t) {
            logger().log(System.Logger.Level.WARNING, "An exception was thrown by TimerTask " + describe(current), t);
            return false;
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
        return owner != null ? owner.logger() : System.getLogger(TimeoutNode.class.getName());
    }

    @Override
    public String toString() {
        long now = owner != null ? owner.nanoTime() : System.nanoTime();
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
        TimerTask held = task();
        text.append(", task: ");
        if (held == null) {
            text.append("(released on cancel)");
        } else {
            text.append(describe(held));
        }
        return text.append(')').toString();
    }
}
