package io.tickwheel.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;

/**
 * The engine behind both public timers: lifecycle, counting, the hand-off to the worker and
 * stop(). The wheel itself is whatever {@link TimingWheel} the facade asks for; it lives inside
 * the {@link Worker} and only the worker thread touches it.
 *
 * <h2>Lifecycle</h2>
 * <pre>
 *   INIT --start() / first newTimeout--&gt; STARTED --stop() / worker fails--&gt; STOPPED
 *   INIT --stop()-----------------------------------------------------------&gt; STOPPED
 * </pre>
 * Each move is a CAS, so exactly one caller starts the thread and exactly one party reports the
 * pending set: the stop() (or failed start) that won, or else the worker that failed.
 *
 * <h2>Counting without a shared counter on the schedule path</h2>
 * pending = scheduled - retired - cancelled, where "scheduled" is the hand-off queue's producer
 * index (each offer claims one), "retired" is counted by the worker alone (expired, or cancelled
 * by stop) and "cancelled" by the threads whose cancel CAS succeeded. Readers load retired and
 * cancelled before scheduled: a timeout is scheduled before it can retire, so the result is
 * never negative, and it is exact whenever no call is in flight.
 *
 * <p>How producers and the worker wake each other is described on {@link Worker}.
 *
 * <p>Threading: thread-safe (via CAS on the lifecycle, the hand-off queue, and padded counters
 * with the access modes documented at each cell).
 */
public final class TimerCore {

    static final int INIT = 0;
    static final int STARTED = 1;
    static final int STOPPED = 2;

    private static final VarHandle LIFECYCLE;

    static {
        try {
            LIFECYCLE = MethodHandles.lookup().findVarHandle(TimerCore.class, "lifecycle", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final System.Logger logger;
    private final Clock clock;
    final long originNanos;
    final NodeQueue inbound = new NodeQueue();
    final PaddedLongs counters = new PaddedLongs(Cells.COUNT);
    /** Null without a limit, so the common path skips it. */
    private final PendingLimit limit;
    private final Worker worker;
    private final Thread workerThread;
    /** INIT, STARTED or STOPPED; moved only by CAS. */
    private volatile int lifecycle;
    /** Set by the worker after its final drain (or when it can never run); publishes the drain. */
    private volatile boolean terminated;
    /** A failed worker's drain, already told (else empty): set before {@code terminated}, taken by one stop(). */
    private final AtomicReference<Set<Timeout>> failedDrain = new AtomicReference<>(Collections.emptySet());
    private volatile Cleaner.Cleanable leakGuard;

    /**
     * Creates an engine; nothing runs until {@link #start()} or the first schedule.
     *
     * @param name the public timer's class name, for messages and the logger
     * @param clock the time source
     * @param wheelFactory makes the wheel, given the clock reading where its tick 0 starts
     * @param threadFactory makes the worker thread, once, here
     * @param maxPending the pending limit, or 0 or less for none
     * @param taskExecutor runs expired tasks, or null to run them on the worker thread
     */
    public TimerCore(final String name, final Clock clock, final LongFunction<TimingWheel> wheelFactory,
            final ThreadFactory threadFactory, final long maxPending, final Executor taskExecutor) {
        this.name = name;
        this.logger = System.getLogger("io.tickwheel." + name);
        this.clock = clock;
        this.originNanos = clock.nanoTime();
        this.limit = PendingLimit.of(maxPending);
        this.counters.setRelease(Cells.PARK_DEADLINE, Cells.AWAKE);
        this.counters.setRelease(Cells.TRANSFER_AT, Worker.TRANSFER_BATCH - 1);
        this.counters.setRelease(Cells.PURGE_AT, Worker.PURGE_MIN);
        this.counters.setRelease(Cells.QUEUED_MIN, Cells.NONE);
        this.worker = new Worker(this, wheelFactory.apply(originNanos), taskExecutor);
        Thread thread = threadFactory.newThread(worker);
        if (thread == null) {
            throw new IllegalStateException("threadFactory.newThread() returned null");
        }
        this.workerThread = thread;
    }

    /**
     * Counts this timer and watches {@code facade} for leaks; call once, from the constructor.
     *
     * @param facade the public timer object
     * @param reportLeak whether a leak is logged (it is stopped either way)
     */
    public void watch(final Object facade, final boolean reportLeak) {
        leakGuard = LeakGuard.watch(facade, this, reportLeak);
    }

    /**
     * Schedules a task: the whole of {@code newTimeout} after argument checks.
     *
     * @param owner the public timer, returned by {@link Timeout#timer()}
     * @param task the task
     * @param delayNanos the delay; zero or negative means the next tick
     * @return the new timeout
     */
    public TimeoutNode schedule(final Timer owner, final TimerTask task, final long delayNanos) {
        int state = lifecycle;
        if (state != STARTED) {
            if (state == STOPPED) {
                throw stopped("cannot be started once stopped");
            }
            start();
        }
        // The clock first: if it throws, no permit has been taken that nothing would give back.
        long elapsedDeadline = elapsedDeadline(clock.nanoTime() - originNanos, delayNanos);
        if (limit != null) {
            limit.acquire();
        }
        TimeoutNode node = new TimeoutNode(owner, task, originNanos + elapsedDeadline);
        long index = inbound.offer(node);
        if (lifecycle != STARTED) {
            return resolveRaceWithStop(node);
        }
        if ((lowerQueuedMin(elapsedDeadline) && elapsedDeadline < counters.getVolatile(Cells.PARK_DEADLINE))
                || index == counters.getVolatile(Cells.TRANSFER_AT)) {
            LockSupport.unpark(workerThread);
        }
        return node;
    }

    /**
     * Lowers QUEUED_MIN to {@code elapsedDeadline} if that is earlier. A node no earlier than the
     * current bound needs nothing: the worker will take the queue by then anyway.
     *
     * @return true if this node is now the earliest queued one
     */
    private boolean lowerQueuedMin(final long elapsedDeadline) {
        long current = counters.getVolatile(Cells.QUEUED_MIN);
        while (elapsedDeadline < current) {
            long witness = counters.compareAndExchange(Cells.QUEUED_MIN, current, elapsedDeadline);
            if (witness == current) {
                return true;
            }
            current = witness;
        }
        return false;
    }

    /** Deadline as nanoseconds since the origin, saturated so a huge delay never wraps into the past. */
    static long elapsedDeadline(final long elapsedNow, final long delayNanos) {
        if (delayNanos <= 0) {
            return elapsedNow;
        }
        long deadline = elapsedNow + delayNanos;
        return deadline < elapsedNow ? Long.MAX_VALUE : deadline;
    }

    /**
     * Our offer raced with stop(): if the worker's final drain took the node, it is cancelled and
     * in stop()'s result, and we return it; if not, we cancel it here and refuse the call, so the
     * caller learns the truth either way.
     */
    private TimeoutNode resolveRaceWithStop(final TimeoutNode node) {
        if (node.tryCancelQuietly()) {
            counters.getAndAdd(Cells.CANCELLED, 1);
            releasePermit();
            throw stopped("cannot be started once stopped");
        }
        return node;
    }

    void releasePermit() {
        if (limit != null) {
            limit.release();
        }
    }

    /** Called by the one thread whose cancel CAS succeeded. */
    void onCancelled() {
        long count = counters.getAndAdd(Cells.CANCELLED, 1) + 1;
        releasePermit();
        if (count == counters.getVolatile(Cells.PURGE_AT)) {
            LockSupport.unpark(workerThread);
        }
    }

    /** Starts the worker if it is not running; see {@code HashedWheelTimer#start()}. */
    public void start() {
        while (true) {
            int state = lifecycle;
            if (state == STARTED) {
                return;
            }
            if (state == STOPPED) {
                throw stopped("cannot be started once stopped");
            }
            if (LIFECYCLE.compareAndSet(this, INIT, STARTED)) {
                try {
                    workerThread.start();
                } catch (RuntimeException | Error e) {
                    // Producers that saw STARTED may have offered already, and no worker will
                    // drain them: drain here (the queue never had a consumer). A stop() that won
                    // the lifecycle CAS meanwhile reports them; otherwise we do.
                    boolean ours = LIFECYCLE.compareAndSet(this, STARTED, STOPPED);
                    worker.run(); // lifecycle is STOPPED: skips the loop, drains, sets terminated
                    if (ours) {
                        releaseLeakGuard();
                        tellCancelled(worker.unprocessed());
                    }
                    throw e;
                }
                return;
            }
        }
    }

    /**
     * Stops the worker and returns the timeouts it cancelled; see {@link Timer#stop()}.
     *
     * @return the pending timeouts, cancelled, each already told through {@code cancelled()}
     */
    public Set<Timeout> stop() {
        if (Thread.currentThread() == workerThread) {
            throw new IllegalStateException(name + ".stop() cannot be called from a TimerTask "
                    + "running on its worker thread");
        }
        int previous;
        do {
            previous = lifecycle;
            if (previous == STOPPED) {
                // Another stop() (or the leak guard) won and gets the set, or the worker failed and left
                // it for the first stop(); either way nothing is pending once this returns.
                if (!terminated) {
                    awaitWorkerExit();
                }
                return failedDrain.getAndSet(Collections.emptySet());
            }
        } while (!LIFECYCLE.compareAndSet(this, previous, STOPPED));
        releaseLeakGuard();
        if (previous == INIT) {
            terminated = true;
            return Collections.emptySet();
        }
        awaitWorkerExit();
        Set<Timeout> cancelled = worker.unprocessed(); // null if the drain itself failed: nothing to report
        return cancelled == null ? Collections.emptySet() : tellCancelled(cancelled);
    }

    /** Tells each drained timeout it was cancelled; returns the set as stop() hands it out. */
    private static Set<Timeout> tellCancelled(final Set<Timeout> drained) {
        drained.forEach(timeout -> ((TimeoutNode) timeout).notifyCancelled());
        return Collections.unmodifiableSet(drained);
    }

    /**
     * Waits for the worker's final drain. Waits on {@code terminated}, not on the thread: between
     * start()'s CAS and {@code Thread.start()} the worker is STARTED but not yet alive, and it
     * still drains once it runs.
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
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** For the leak guard: stop without waiting (we are on the Cleaner's thread). */
    void stopAsync() {
        int previous;
        do {
            previous = lifecycle;
            if (previous == STOPPED) {
                return;
            }
        } while (!LIFECYCLE.compareAndSet(this, previous, STOPPED));
        if (previous == INIT) {
            terminated = true;
        }
        LockSupport.unpark(workerThread);
    }

    /** The worker failed: refuse new timeouts; true if no stop() won first, so the worker reports its drain. */
    boolean forceStop() {
        return LIFECYCLE.compareAndSet(this, STARTED, STOPPED);
    }

    /**
     * Reports a failed worker's drain, on the worker before {@code terminated}: told now, as no one may
     * ever call stop(); the first stop() still returns it, for callers that reschedule what stop() returns.
     */
    void reportFailedDrain(final Set<Timeout> drained) {
        releaseLeakGuard(); // it owns no thread any more, so it is no longer a live timer
        failedDrain.set(tellCancelled(drained));
    }

    private void releaseLeakGuard() {
        Cleaner.Cleanable guard = leakGuard;
        if (guard != null) {
            guard.clean();
        }
    }

    /**
     * Returns the number of pending timeouts; see {@link Timer#pendingTimeouts()}.
     *
     * @return the count
     */
    public long pendingTimeouts() {
        if (terminated) {
            return 0;
        }
        long retired = counters.getAcquire(Cells.RETIRED);
        long cancelled = counters.getVolatile(Cells.CANCELLED);
        return inbound.producedCount() - retired - cancelled;
    }

    void terminated() {
        terminated = true;
    }

    boolean isStarted() {
        return lifecycle == STARTED;
    }

    boolean stopRequested() {
        return lifecycle == STOPPED;
    }

    private IllegalStateException stopped(final String what) {
        return new IllegalStateException(name + " " + what);
    }

    /**
     * Returns how many expired tasks the task executor refused.
     *
     * @return the count
     */
    public long rejectedTasks() {
        return worker.rejectedTasks();
    }

    /**
     * Returns the worker thread, for tests and diagnostics.
     *
     * @return the thread
     */
    public Thread workerThread() {
        return workerThread;
    }

    String name() {
        return name;
    }

    System.Logger logger() {
        return logger;
    }

    /**
     * Returns the clock.
     *
     * @return the clock
     */
    public Clock clock() {
        return clock;
    }
}
