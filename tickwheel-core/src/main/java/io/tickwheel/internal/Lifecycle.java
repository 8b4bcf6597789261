package io.tickwheel.internal;

import io.tickwheel.Timeout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * One timer's lifecycle: starting the worker thread, stopping it, waiting for its final drain,
 * a failed worker's drain, and the leak guard.
 *
 * <pre>
 *   INIT --start() / first newTimeout--&gt; STARTED --stop() / worker fails--&gt; STOPPED
 *   INIT --stop()-----------------------------------------------------------&gt; STOPPED
 * </pre>
 * Each move is a CAS, so exactly one caller starts the thread and exactly one party reports the
 * pending set: the stop() (or failed start) that won, or else the worker that failed.
 *
 * <p>Threading: thread-safe (via CAS on the state; the worker's drain is published by the
 * volatile {@code terminated} flag, written after it).
 */
final class Lifecycle implements WorkerControl, LeakGuard.Target {

    static final int INIT = 0;
    static final int STARTED = 1;
    static final int STOPPED = 2;

    private static final VarHandle STATE;
    private static final VarHandle REPORT;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Lifecycle.class, "state", int.class);
            REPORT = MethodHandles.lookup().findVarHandle(Lifecycle.class, "reported", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final Worker worker;
    private final Thread workerThread;
    /** INIT, STARTED or STOPPED; moved only by CAS. */
    private volatile int state;
    /** Set by the worker after its final drain (or when it can never run); publishes the drain. */
    private volatile boolean terminated;
    private volatile LeakGuard.Watch leakGuard;
    /** Taken (CAS) by the stop() that reports the pending set; given back if that call fails. */
    @SuppressWarnings("UnusedVariable") // reason: read through REPORT's compareAndSet
    private volatile boolean reported;
    /**
     * How many of the drained set are told already; written by the one party telling at a time (the
     * reporting stop(), start() after a failed thread start, or a failed worker before
     * {@code terminated}), and published to the next by {@code reported} or {@code terminated}.
     */
    private int told;

    /**
     * Creates the lifecycle and the worker it controls, and asks for the worker thread, once.
     *
     * @param name the public timer's name, for messages
     * @param workerOf makes the worker, given what it reports to
     * @param threadFactory makes the worker thread
     */
    Lifecycle(final String name, final Function<WorkerControl, Worker> workerOf, final ThreadFactory threadFactory) {
        this.name = name;
        this.worker = workerOf.apply(this);
        this.workerThread = Checks.newUnstartedThread(threadFactory, worker);
    }

    /** Counts this timer and watches {@code facade} for leaks; once, from the constructor. */
    void watch(final Object facade, final System.Logger logger, final boolean reportLeak) {
        leakGuard = LeakGuard.watch(facade, this, name, logger, reportLeak);
    }

    /** The state, for the schedule path's fast check: STARTED, or start() (or refuse) first. */
    int state() {
        return state;
    }

    @Override
    public boolean isStarted() {
        return state == STARTED;
    }

    @Override
    public boolean stopRequested() {
        return state == STOPPED;
    }

    Thread workerThread() {
        return workerThread;
    }

    /** Starts the worker if it is not running; see {@code HashedWheelTimer#start()}. */
    void start() {
        while (true) {
            int current = state;
            if (current == STARTED) {
                return;
            }
            if (current == STOPPED) {
                throw stopped();
            }
            if (STATE.compareAndSet(this, INIT, STARTED)) {
                try {
                    workerThread.start();
                } catch (RuntimeException | Error e) {
                    // Producers that saw STARTED may have offered already, and no worker will
                    // drain them: drain here (the queue never had a consumer). A stop() that won
                    // the state CAS meanwhile reports them; otherwise we do.
                    boolean ours = STATE.compareAndSet(this, STARTED, STOPPED);
                    // State is STOPPED: the run skips the loop, drains, sets terminated. Unless the
                    // thread runs the worker after all (a factory started it behind our back): then
                    // that run drains, and we wait for it, so that two workers never run at once.
                    while (!worker.runIfFirst() && !terminated) {
                        LockSupport.parkNanos(10_000L);
                    }
                    Set<Timeout> drained = worker.unprocessed();
                    // Told here (not returned: start() throws), unless a stop() that came in
                    // meanwhile took the report first; if telling fails, the next stop() goes on.
                    if (ours && REPORT.compareAndSet(this, false, true)) {
                        try {
                            releaseLeakGuard();
                            if (drained != null) {
                                tellRest(drained);
                            }
                        } catch (RuntimeException | Error failed) {
                            reported = false; // cannot fail; e, the start's failure, is what start() throws
                        }
                    }
                    throw e;
                }
                return;
            }
        }
    }

    /**
     * Stops the worker and returns the timeouts it cancelled; see {@code Timer#stop()}.
     *
     * <p>The set goes to the first stop() that finds the worker's drain done and takes the report,
     * which is one CAS. If that call then fails (a StackOverflowError in a deep caller, or a
     * {@code cancelled()} callback whose failure cannot even be logged), it gives the report back
     * (a field write, which cannot fail) and the timeouts it had already told stay told: a retried
     * stop() tells the rest and returns the whole set. Until 2026-11-29 the caller that won the
     * state CAS owned the set, and an Error after that CAS lost it for good.
     *
     * @return the pending timeouts, cancelled, each already told through {@code cancelled()}
     */
    Set<Timeout> stop() {
        refuseWorkerThread();
        int previous;
        do {
            previous = state;
            if (previous == STOPPED) {
                break;
            }
        } while (!STATE.compareAndSet(this, previous, STOPPED));
        if (previous == INIT) {
            // Never started: no worker, nothing pending. Written before any call, so a later
            // stop() finds it even if this one fails in what follows.
            terminated = true;
            releaseLeakGuard();
            return Collections.emptySet();
        }
        releaseLeakGuard(); // again here if an earlier stop() failed before it; it counts once
        // Another stop() (or the leak guard) may have won the state; either way nothing is
        // pending, and the thread has ended, once this returns.
        awaitWorkerExit();
        if (!REPORT.compareAndSet(this, false, true)) {
            return Collections.emptySet();
        }
        try {
            // A failed worker told its drain already (as far as it got: see reportFailedDrain).
            Set<Timeout> drained = worker.unprocessed(); // null if the drain itself failed: nothing to report
            return drained == null ? Collections.emptySet() : tellRest(drained);
        } catch (Throwable t) {
            reported = false; // a retried stop() reports instead; cannot fail
            throw t;
        }
    }

    /** Throws if called from a task on the worker thread, which stop() would wait for forever. */
    void refuseWorkerThread() {
        if (Thread.currentThread() == workerThread) {
            throw new IllegalStateException(name + ".stop() cannot be called from a TimerTask "
                    + "running on its worker thread");
        }
    }

    /**
     * Tells each drained timeout not yet told that it was cancelled, in the set's iteration order
     * (stable, since nothing changes the set once the worker ended), and returns the set as stop()
     * hands it out. {@code told} counts how far an earlier call got before it failed.
     *
     * <p>Counted after each call, with nothing that can fail in between (a field write): a
     * {@code cancelled()} that returned is never called again, and one that a failure kept from
     * being called is called by the retry. What {@code cancelled()} itself throws is logged and
     * counts as told, as always; only a failure that escapes that (its log failing too) has the
     * retry call it once more.
     */
    private Set<Timeout> tellRest(final Set<Timeout> drained) {
        int index = 0;
        for (Timeout timeout : drained) {
            if (index++ >= told) {
                ((TimeoutNode) timeout).notifyCancelled();
                told = index;
            }
        }
        return Collections.unmodifiableSet(drained);
    }

    /**
     * Waits for the worker's final drain, then for its thread to end. Waits on {@code terminated}
     * first, not on the thread: between start()'s CAS and {@code Thread.start()} the worker is
     * STARTED but not yet alive, and it still drains once it runs.
     */
    private void awaitWorkerExit() {
        LockSupport.unpark(workerThread);
        boolean interrupted = false;
        while (!terminated) {
            if (!workerThread.isAlive()) {
                LockSupport.parkNanos(10_000L);
                continue;
            }
            try {
                workerThread.join(100);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            if (!terminated && workerThread.isAlive()) {
                // A task blocked on the worker thread: an interrupt is the only way to free it.
                workerThread.interrupt();
            }
        }
        // Then the thread's end, as Netty's stop() waits for it: callers check isAlive() for thread
        // leaks (tests, container shutdown). Only the worker's own frames and the thread factory's
        // wrapper, if any, run after terminated; a thread that never started is not alive.
        while (workerThread.isAlive()) {
            try {
                workerThread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** For the leak guard: stop without waiting (we are on the Cleaner's thread). */
    @Override
    public void stopAsync() {
        int previous;
        do {
            previous = state;
            if (previous == STOPPED) {
                return;
            }
        } while (!STATE.compareAndSet(this, previous, STOPPED));
        if (previous == INIT) {
            terminated = true;
        }
        LockSupport.unpark(workerThread);
    }

    @Override
    public boolean forceStop() {
        return STATE.compareAndSet(this, STARTED, STOPPED);
    }

    /**
     * Tells a failed worker's drain, on the worker before {@code terminated}: told now, as no one may
     * ever call stop(); the first stop() still returns it (telling whatever this could not), for
     * callers that reschedule what stop() returns. It takes no report: no stop() tells while it
     * runs, since each waits for {@code terminated}, which also publishes {@code told}.
     */
    @Override
    public void reportFailedDrain(final Set<Timeout> drained) {
        releaseLeakGuard(); // it owns no thread any more, so it is no longer a live timer
        tellRest(drained);
    }

    private void releaseLeakGuard() {
        LeakGuard.Watch guard = leakGuard;
        if (guard != null) {
            guard.release();
        }
    }

    @Override
    public void terminated() {
        terminated = true;
    }

    /** Whether the worker's final drain is done; then nothing is pending. */
    boolean isTerminated() {
        return terminated;
    }

    /** The worker's final drain, for test rigs that run the worker's loop themselves. */
    Set<Timeout> drained() {
        return worker.unprocessed();
    }

    IllegalStateException stopped() {
        return new IllegalStateException(name + " cannot be started once stopped");
    }

    long rejectedTasks() {
        return worker.rejectedTasks();
    }
}
