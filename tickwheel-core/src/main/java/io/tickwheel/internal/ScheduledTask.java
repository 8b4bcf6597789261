package io.tickwheel.internal;

import io.tickwheel.Timeout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One task of a {@link ScheduledExecutorCore}, in three roles: the future its caller holds, the
 * {@link io.tickwheel.TimerTask} whose timeout marks each due time, and the {@link Runnable} that the workers
 * execute. The result (and get, cancel, runAndReset) is {@link FutureTask}'s, as in the JDK's
 * {@code ScheduledThreadPoolExecutor}; this class adds where the task is in its schedule.
 *
 * <h2>Run phase</h2>
 * <pre>
 *   WAITING --due: dispatch (timer thread; caller if no delay)--&gt; READY    handed to the workers
 *   READY   --a worker starts it-----------------------------------&gt; RUNNING
 *   RUNNING --the run ends (before re-arming)----------------------&gt; WAITING  re-armed, or finished
 *   RUNNING --shutdownNow--&gt; INTERRUPTING --&gt; INTERRUPTED --the run ends--&gt; WAITING
 *   WAITING | READY --shutdownNow----------------------------------&gt; DEAD     never starts
 * </pre>
 * Each arrow is a CAS, so a task is started at most once per dispatch, never while it runs
 * (fixed rate and fixed delay never overlap), and never after shutdownNow claimed it. Calling
 * {@link #run()} yourself does nothing: a body runs only when the executor dispatched it.
 *
 * <p>The task is registered with its core from schedule until it will never run again and no
 * body is running; {@link ScheduledExecutorCore#untrack} is idempotent, so every path that ends
 * the task (run finished, cancel while not running, timer stopped, workers rejected) calls it.
 *
 * <p>Threading: thread-safe (result via FutureTask; {@code phase} and {@code timeout} via CAS;
 * {@code timeNanos} and {@code runner} are volatile; {@code prev}, {@code next} and
 * {@code sequence} are guarded by the lock of the core's registry's stripe).
 *
 * @param <V> the result type
 */
public final class ScheduledTask<V> extends FutureTask<V> implements RunnableScheduledFuture<V>, HandOffTask {

    private static final int WAITING = 0;
    private static final int READY = 1;
    private static final int RUNNING = 2;
    private static final int INTERRUPTING = 3;
    private static final int INTERRUPTED = 4;
    private static final int DEAD = 5;

    private static final VarHandle PHASE;
    private static final VarHandle TIMEOUT;
    private static final VarHandle TIME;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PHASE = lookup.findVarHandle(ScheduledTask.class, "phase", int.class);
            TIMEOUT = lookup.findVarHandle(ScheduledTask.class, "timeout", Timeout.class);
            TIME = lookup.findVarHandle(ScheduledTask.class, "timeNanos", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Host core;
    /** 0: one-shot; &gt; 0: fixed rate; &lt; 0: fixed delay of {@code -periodNanos}. */
    private final long periodNanos;
    /** Breaks ties between equal times (schedule order for one thread), given by the registry when added. */
    long sequence;
    /**
     * The due time of the next run on {@link System#nanoTime()}. Written by the scheduling thread
     * (plainly: see the constructor), then only by the worker that ends a run (runs never overlap);
     * read by anyone (volatile).
     */
    private volatile long timeNanos;
    /**
     * The current timeout. Replaced by CAS by whoever arms (so a late re-arm never overwrites a
     * newer one); read volatile by cancel. With {@code phase} and FutureTask's state it forms
     * the Dekker pair that makes cancel and re-arm each see the other: see {@link #arm}.
     */
    private volatile Timeout timeout;
    /**
     * The run phase above; every access is volatile (CAS and getVolatile through PHASE, and plain
     * writes of the volatile field where a call could be cut short by an Error).
     */
    @SuppressWarnings("unused") // read only through PHASE
    private volatile int phase;
    /**
     * The thread running the body. Written (volatile) by that thread after its RUNNING CAS and
     * cleared before it leaves RUNNING; read by shutdownNow after its RUNNING to INTERRUPTING CAS.
     */
    private volatile Thread runner;
    /** What a task asks of its executor ({@link ScheduledExecutorCore}), which this class never names. */
    interface Host {
        /**
         * Puts a timeout for {@code task} on the timer, due {@code delayNanos} after
         * {@code nowNanos}, a {@link System#nanoTime()} reading the caller has just taken.
         *
         * @throws IllegalStateException if the timer is stopped
         */
        Timeout newTimeout(ScheduledTask<?> task, long nowNanos, long delayNanos);

        /** Hands a due task to the workers; see {@link ScheduledExecutorCore#dispatch}. */
        void dispatch(ScheduledTask<?> task, boolean throwOnReject);

        /** Removes a task that will never run again; see {@link ScheduledExecutorCore#untrack}. */
        void untrack(ScheduledTask<?> task);

        /** Orders executors, unique to each, for compareTo's ties between their tasks. */
        long ordinal();
    }

    /**
     * Set when the schedule call that made this task threw, so nobody holds it: it must leave the
     * registry, and starts no body from then on (see {@link #abandon}). A volatile field
     * write, because the one place that sets it may be at the edge of a stack that just
     * overflowed, where any call can fail; the timer's callback, the workers' run and shutdown
     * read it and finish the job if {@link #abandon} could not.
     */
    volatile boolean abandoned;

    private volatile boolean interruptWanted; // set by cancel(true) before it cancels: see cancel
    /** Links of the core's registry; guarded by the lock of the registry's stripe that holds the task. */
    ScheduledTask<?> prev;
    ScheduledTask<?> next;
    /** 1 + the index of the registry's stripe that holds it, 0 until added; written once, when added. */
    int stripe;

    ScheduledTask(final Host core, final Callable<V> callable, final long timeNanos, final long periodNanos) {
        super(callable);
        this.core = core;
        // Plain: our threads get the task through a release (the registry's lock, the timer's
        // queue), so a volatile store's fence buys nothing here (docs/BENCHMARKS.md, 2026-11-29).
        TIME.set(this, timeNanos);
        this.periodNanos = periodNanos;
    }

    private boolean casPhase(final int expected, final int value) {
        return PHASE.compareAndSet(this, expected, value);
    }

    /** The timer's callback: hand the body to the workers; user code never runs on this thread. */
    @Override
    public void run(final Timeout fired) {
        core.dispatch(this, false);
    }

    /** The timer cancelled a timeout this task did not cancel itself: it was stopped under us. */
    @Override
    public void cancelled(final Timeout cancelled) {
        if (!isDone()) {
            setException(new RejectedExecutionException("the timer was stopped before the task ran"));
            core.untrack(this);
        }
    }

    /** Marks the task handed to the workers; false if shutdownNow claimed it first. */
    boolean claimDispatch() {
        return casPhase(WAITING, READY);
    }

    /** Fails a task the workers refused; it will never run. */
    void reject(final RejectedExecutionException cause) {
        setException(cause);
    }

    /** For shutdownNow: true if the task has not started and now never will. */
    boolean claimNeverStarted() {
        return casPhase(WAITING, DEAD) || claimUnstartedDispatch();
    }

    /** For a dispatch the workers threw on: true if the body has not started and now never will. */
    boolean claimUnstartedDispatch() {
        return casPhase(READY, DEAD); // not WAITING: for a periodic task that is a run that has ended
    }

    /**
     * For shutdownNow and cancel(true): interrupts the body if it is running (best effort, as the
     * JDK says). The run's end waits while the phase is INTERRUPTING, so leaving it is a field
     * write in a finally: no call there that a deep caller's stack overflow could cut short.
     */
    void interruptRun() {
        if (casPhase(RUNNING, INTERRUPTING)) {
            boolean sent = false;
            try {
                Thread thread = runner;
                if (thread != null) {
                    thread.interrupt();
                }
                sent = true;
            } finally {
                phase = sent ? INTERRUPTED : RUNNING; // cut short: back to RUNNING, so a retry interrupts
            }
        }
    }

    @Override
    public void run() {
        if (!casPhase(READY, RUNNING)) {
            return; // claimed by shutdownNow, or not dispatched by the executor
        }
        if (abandoned) {
            // Handed to the workers just before its schedule call threw: nobody holds it.
            endRun();
            abandon();
            return;
        }
        runner = Thread.currentThread();
        // A shutdownNow between our CAS and that write found no runner: it writes the phase, then
        // reads the runner; we write the runner, then read the phase, so one of us sees the other.
        int seen = (int) PHASE.getVolatile(this);
        if (seen == INTERRUPTING || seen == INTERRUPTED) {
            Thread.currentThread().interrupt();
        }
        boolean again = false;
        try {
            if (periodNanos == 0) {
                super.run();
            } else {
                again = runAndReset(); // false once it threw or was cancelled: the schedule ends
            }
        } finally {
            endRun();
        }
        if (!again || !rearm()) {
            core.untrack(this);
        }
    }

    /** Leaves RUNNING before re-arming, so the next dispatch can never find the run still open. */
    private void endRun() {
        runner = null;
        if (!casPhase(RUNNING, WAITING)) {
            // shutdownNow is interrupting this run: let its interrupt land, then clear it, so it
            // cannot leak into whatever the pool (which we do not own) gives this thread next.
            while ((int) PHASE.getVolatile(this) == INTERRUPTING) {
                Thread.onSpinWait(); // the interrupter is between its CAS and a field write
            }
            Thread.interrupted();
            phase = WAITING;
        }
    }

    /** Arms the next run: fixed rate from the original start (no drift), fixed delay from now. */
    private boolean rearm() {
        long now = System.nanoTime();
        long time = periodNanos > 0 ? timeNanos + periodNanos : now - periodNanos;
        timeNanos = time;
        try {
            return arm(now, time - now);
        } catch (RejectedExecutionException e) {
            reject(e);
            return false;
        } catch (Throwable t) {
            // An Error from the timer (out of memory while scheduling): the schedule ends here, and
            // the future says why, rather than a task that neither runs again nor ends.
            reject(new RejectedExecutionException("the timer failed to schedule the next run", t));
            return false;
        }
    }

    /**
     * Puts the next due time on the timer. Races with {@link #cancel}, which writes the state
     * then reads {@code timeout}: this writes {@code timeout} then reads the state, so (all
     * volatile) at least one of them sees the other and the armed timeout is always cancelled.
     *
     * @param nowNanos a {@link System#nanoTime()} reading taken just before, which the delay counts from
     * @param delayNanos the delay; zero or less fires on the next tick
     * @return false if the task is already done, so it will not run again
     * @throws RejectedExecutionException if the timer is stopped or at its pending limit
     */
    boolean arm(final long nowNanos, final long delayNanos) {
        Timeout previous = timeout;
        Timeout armed;
        try {
            armed = core.newTimeout(this, nowNanos, delayNanos);
        } catch (IllegalStateException stopped) {
            throw new RejectedExecutionException("the timer was stopped", stopped);
        }
        if (!TIMEOUT.compareAndSet(this, previous, armed)) {
            return true; // a later run already re-armed: armed fired long ago, that run owns the task
        }
        if (isDone()) {
            armed.cancel(); // cancelled (or failed) while arming: the canceller may not have seen armed
            return false;
        }
        return true;
    }

    /**
     * Ends a task whose schedule call threw (see {@link #abandoned}): whatever that failure left
     * behind (a timeout armed before the Error, a rejection half handled), the task starts no body
     * from now on and leaves the registry, unless a body is running, which leaves it when it ends.
     */
    void abandon() {
        if (!cancel(false)) { // done already: make sure it left the registry
            finishCancel();
        }
    }

    /**
     * For a task already cancelled or failed: what a cancel whose own Error cut it short (a deep
     * caller's stack overflow) may have left undone, done again; idempotent.
     */
    private void finishCancel() {
        Timeout current = timeout;
        try {
            if (current != null && isCancelled() && !current.isCancelled() && !current.isExpired()) {
                current.cancel();
            }
        } finally {
            // Even if that threw (an Error, or a timer of the caller's own): the task will never run,
            // and if it stayed registered the executor could never terminate.
            int now = (int) PHASE.getVolatile(this);
            if (now != RUNNING && now != INTERRUPTING && now != INTERRUPTED) {
                core.untrack(this); // a running body untracks itself when it ends
            }
        }
    }

    @Override
    public boolean cancel(final boolean mayInterruptIfRunning) {
        // Never FutureTask's interrupt: an Error (a deep caller's stack overflow) between its two
        // writes leaves it INTERRUPTING for good and the body's run spinning on it; ours ends with
        // a field write. The wish is written first, as FutureTask wakes waiters after its CAS, where
        // an Error would skip our interrupt: a retried cancel(true) then still interrupts.
        boolean wishedBefore = interruptWanted;
        if (mayInterruptIfRunning) {
            interruptWanted = true;
        }
        boolean cancelled = super.cancel(false);
        if (mayInterruptIfRunning && (cancelled || (wishedBefore && isCancelled()))) {
            interruptRun();
        }
        if (cancelled || isCancelled()) {
            // The first cancel drops the timeout now (or the wheel holds it until its deadline) and
            // leaves the registry; a second one finishes what an Error may have cut short in the first.
            finishCancel();
        }
        return cancelled;
    }

    /** In spells ({@link SpellWait}): a waiter a deep caller's overflow failed to wake still wakes. */
    @Override
    public V get() throws InterruptedException, ExecutionException {
        return SpellWait.untimed(this::getWithin);
    }

    /** As {@link #get()}; FutureTask's own check throws a bare NullPointerException, this names the argument. */
    @Override
    public V get(final long timeout, final TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return SpellWait.timed(this::getWithin, Checks.notNull(unit, "unit").toNanos(timeout));
    }

    private V getWithin(final long nanos) throws InterruptedException, ExecutionException, TimeoutException {
        return super.get(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean isPeriodic() {
        return periodNanos != 0;
    }

    @Override
    public long getDelay(final TimeUnit unit) {
        return Checks.notNull(unit, "unit").convert(timeNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(final Delayed other) {
        if (Checks.notNull(other, "other") == this) {
            return 0;
        }
        if (other instanceof ScheduledTask<?>) {
            ScheduledTask<?> that = (ScheduledTask<?>) other;
            long diff = timeNanos - that.timeNanos;
            if (diff != 0) {
                return diff < 0 ? -1 : 1;
            }
            if (sequence != that.sequence) {
                return sequence < that.sequence ? -1 : 1;
            }
            return Long.compare(core.ordinal(), that.core.ordinal()); // two executors: still total
        }
        return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override // identity, stated because compareTo is overridden: distinct tasks never compare equal
    public boolean equals(final Object other) {
        return this == other;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
