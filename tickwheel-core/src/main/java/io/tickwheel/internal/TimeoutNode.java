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
 * Both transitions are a CAS from {@code PENDING} (retried only while the state is still PENDING:
 * see below), so exactly one of them happens, once: the
 * thread whose CAS succeeds owns the consequence (running the task, or counting the cancel and
 * calling {@link TimerTask#cancelled(Timeout)}); every other thread sees its CAS fail and does
 * nothing.
 *
 * <h2>The state word also says where the node was queued</h2>
 * The low two bits of {@code state} are the state; the rest is the node's place in the hand-off
 * queue ({@link #place(int)}), written once, before the node is published, so that a cancel
 * can put a tombstone in its queue slot and the worker's purge skips the node without loading it
 * (the load is a cache miss per cancelled node). There is no room for another field: a fifth one
 * would make the node 40 bytes. A thread that reads the word through a data race may see it
 * without its place; a CAS expecting that value then fails with the state still PENDING, so each
 * transition retries until the state bits are no longer PENDING.
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
    /** The state word's low bits: the state; the rest is the place ({@link #place}). */
    static final int STATE_BITS = 2;
    private static final int STATE_MASK = (1 << STATE_BITS) - 1;

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
    /**
     * The place ({@link #place}) above {@link #STATE_BITS}, the state below. The place is written
     * once, plain, before publication; the state by CAS from PENDING only; read with acquire.
     */
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    TimeoutNode(final TimeoutOwner owner, final TimerTask task, final long deadlineNanos) {
        this.owner = owner;
        this.task = task;
        this.deadlineNanos = deadlineNanos;
    }

    private int getAcquireState() {
        return (int) STATE.getAcquire(this) & STATE_MASK;
    }

    /**
     * Records where the hand-off queue put this node, before anyone else can see it (the queue's
     * release store publishes it); 0 means nowhere.
     *
     * @param place at most {@code 2^30 - 1}
     */
    void place(final int place) {
        // Plain: the node is not yet published. The state is kept (tests queue cancelled nodes).
        STATE.set(this, (place << STATE_BITS) | ((int) STATE.get(this) & STATE_MASK));
    }

    /**
     * The place {@link #place} recorded, as this thread sees it (0 if none, or not yet seen).
     *
     * @return the place
     */
    int place() {
        return (int) STATE.getAcquire(this) >>> STATE_BITS;
    }

    /**
     * Moves the state from PENDING to {@code value}, keeping the place; see the class comment for
     * why it retries.
     *
     * @return the word it replaced, or -1 if the state had already left PENDING
     */
    private int leavePending(final int value) {
        return leavePending((int) STATE.getAcquire(this), value);
    }

    /**
     * {@link #leavePending(int)} from a word read as {@code seen}, perhaps stale; tests pass a word
     * without the place, as a reader through a data race may see it.
     *
     * @return the word it replaced, or -1 if the state had already left PENDING
     */
    int leavePending(final int seen, final int value) {
        int word = seen;
        while ((word & STATE_MASK) == PENDING) {
            int witness = (int) STATE.compareAndExchange(this, word, word | value);
            if (witness == word) {
                return word;
            }
            word = witness;
        }
        return -1;
    }

    /**
     * Moves this node from pending to expired.
     *
     * @return true if this call did it, so the caller must hand the task to run
     */
    boolean tryExpire() {
        return leavePending(EXPIRED) != -1;
    }

    /**
     * Moves this node from pending to cancelled without counting it or calling back: for the
     * worker's drain on stop, which counts and reports its nodes itself.
     *
     * @return true if this call did it
     */
    boolean tryCancelQuietly() {
        return leavePending(CANCELLED) != -1;
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
        int word = leavePending(CANCELLED);
        if (word == -1) {
            return false;
        }
        // The node stays in its bucket until the worker drops it; the core counts it, which is
        // what lets the worker decide when purging is worth a wake-up, and marks its queue slot.
        // An Error there (a deep caller's stack overflow) still lets the task hear of its cancel
        // and be let go, then reaches the caller: nothing else would ever call them again.
        try {
            if (owner != null) {
                owner.onCancelled(this, word >>> STATE_BITS);
            }
        } finally {
            try {
                notifyCancelled();
            } finally {
                releaseTask();
            }
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
            logThrown(logger(), "An exception was thrown by TimerTask.cancelled() of " + describe(current), t);
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
            logThrown(logger(), "An exception was thrown by TimerTask " + describe(current), t);
            return false;
        }
    }

    /**
     * Logs a task's throwable at WARNING. Logging formats its stack trace, which calls its
     * {@code getMessage()} and {@code toString()}, and the JDK's handlers catch only
     * {@code Exception}: a throwable whose message throws an Error would make the log call throw,
     * and one task's odd exception would stop the timer. Then it is logged by class instead; a
     * backend that fails on that too is broken, and its failure goes on as any other.
     */
    static void logThrown(final System.Logger logger, final String message, final Throwable thrown) {
        logThrown(logger, System.Logger.Level.WARNING, message, thrown);
    }

    /** {@link #logThrown(System.Logger, String, Throwable)} at {@code level}. */
    static void logThrown(final System.Logger logger, final System.Logger.Level level, final String message,
            final Throwable thrown) {
        try {
            logger.log(level, message, thrown);
        } catch (Throwable unloggable) {
            logger.log(level, message + ": a " + thrown.getClass().getName()
                    + " that could not be logged (logging it threw " + unloggable.getClass().getName() + ")");
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
