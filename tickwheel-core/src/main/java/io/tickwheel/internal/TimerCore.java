package io.tickwheel.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine behind both public timers: the schedule path, and the wiring of the parts it
 * hands to. The parts:
 * <ul>
 *   <li>{@link HandOff}: the queues new timeouts wait in, the counters, the optional cap on
 *       pending timeouts, and when to wake the worker;</li>
 *   <li>{@link Lifecycle}: start, stop, waiting for the worker, a failed worker's drain, the
 *       leak guard;</li>
 *   <li>{@link Worker}: the worker thread's loop, driving the wheel the options ask for;</li>
 * </ul>
 * A timeout reaches the engine (to count a cancel) through its {@link TimeoutOwner}: one
 * {@link #bind bound} object per public timer that holds the public timer and this engine, so
 * that the engine itself never holds the public timer (the leak guard watches that object).
 *
 * <p>Threading: thread-safe; see each part.
 */
public final class TimerCore implements StatsSource {

    private static final VarHandle WAKE_LOST;

    static {
        try {
            WAKE_LOST = MethodHandles.lookup().findVarHandle(TimerCore.class, "wakeLost", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final System.Logger logger;
    private final Clock clock;
    private final long originNanos;
    /** Package-private for tests that inject faults into the queue. */
    final HandOff handOff;
    private final Lifecycle lifecycle;
    /** The lifecycle's worker thread, kept here too so a wake-up is one load away. */
    private final Thread workerThread;
    /** Where the worker thread's own schedules go, or null with a pending limit; see {@link OwnLane}. */
    private final OwnLane ownLane;
    /** What the worker measures; the callers' counts are read from the hand-off and the limit. */
    private final StatsRecorder stats;
    /**
     * Set when an Error (a deep caller's stack overflow) struck a producer between its offer and
     * the end of its wake-up handshake, which may have taken the duty to wake the worker and not
     * done it: later offers would then count on a wake-up that never comes (seen: a sleeping
     * worker, timeouts queued behind it that never fired). Each producer reads it after its offer
     * (one volatile load, a plain load on x86) and, if set, takes it by swap and wakes the
     * worker; the swap makes the failed producer's offer visible to whoever wakes for it. Not
     * closed: a producer that offered and read this between the failed one taking the duty and
     * its Error waits, as the failed one's own timeout does, for the next schedule or due timeout
     * (closing it would need the worker to wake in spells even when idle).
     */
    @SuppressWarnings("unused") // accessed through WAKE_LOST too
    private volatile boolean wakeLost;

    /**
     * Creates an engine; nothing runs until {@link #start()} or the first schedule.
     *
     * @param options the timer's options, read here once
     */
    public TimerCore(final TimerOptions options) {
        this.name = options.name();
        this.logger = options.logger();
        this.clock = options.clock();
        this.originNanos = clock.nanoTime();
        this.handOff = new HandOff(options.maxPendingTimeouts());
        TimingWheel wheel = options.newWheel(originNanos);
        StatsRecorder recorder = new StatsRecorder(name, logger, options.slowTaskNanos(),
                options.taskExecutor() != null);
        this.stats = recorder;
        this.lifecycle = new Lifecycle(name,
                control -> new Worker(control, handOff, wheel, options, originNanos, recorder),
                options.threadFactory());
        this.workerThread = lifecycle.workerThread();
        this.ownLane = handOff.ownLane();
        recorder.named(name + " (" + workerThread.getName() + ")");
        JfrSupport.register(this);
    }

    /**
     * Returns what the timeouts of {@code facade} keep: the public timer and this engine. Call
     * once per public timer; the engine does not keep it.
     *
     * @param facade the public timer, returned by {@link Timeout#timer()}
     * @return the owner to pass to {@link #schedule}
     */
    public TimeoutOwner bind(final Timer facade) {
        return new Binding(facade, this);
    }

    /**
     * Counts this timer and watches {@code facade} for leaks; call once, from the constructor.
     *
     * @param facade the public timer object
     * @param reportLeak whether a leak is logged (it is stopped either way)
     */
    public void watch(final Object facade, final boolean reportLeak) {
        lifecycle.watch(facade, logger, reportLeak);
    }

    /**
     * Schedules a task: the whole of {@code newTimeout} after argument checks.
     *
     * @param owner what the timeout keeps, from {@link #bind}
     * @param task the task
     * @param delayNanos the delay; zero or negative means the next tick
     * @return the new timeout
     */
    public TimeoutNode schedule(final TimeoutOwner owner, final TimerTask task, final long delayNanos) {
        return schedule(owner, task, clock.nanoTime(), delayNanos);
    }

    /**
     * Schedules a task from a clock reading the caller already took, so that a caller which needs
     * the same instant for itself (the executor adapter dates its futures) reads the clock once.
     *
     * @param owner what the timeout keeps, from {@link #bind}
     * @param task the task
     * @param nowNanos a reading of this timer's clock taken just now (see {@link #onSystemClock()})
     * @param delayNanos the delay from {@code nowNanos}; zero or negative means the next tick
     * @return the new timeout, due at {@code nowNanos + delayNanos} (saturated)
     */
    public TimeoutNode schedule(final TimeoutOwner owner, final TimerTask task, final long nowNanos,
            final long delayNanos) {
        int state = lifecycle.state();
        if (state != Lifecycle.STARTED) {
            if (state == Lifecycle.STOPPED) {
                throw lifecycle.stopped();
            }
            lifecycle.start();
        }
        long elapsedDeadline = Ticks.elapsedDeadline(nowNanos - originNanos, delayNanos);
        TimeoutNode node = new TimeoutNode(owner, task, originNanos + elapsedDeadline);
        if (Thread.currentThread() == workerThread && ownLane != null) {
            // A task re-arming from the worker: no other thread is involved, and no wake-up is due
            // (the worker links the lane before it parks). Racing with stop() needs nothing either:
            // the worker's final drain, on this thread after this task, takes the node.
            ownLane.offer(node);
            return node;
        }
        int lane = handOff.laneOfCaller();
        // Checks the pending limit and claims in one step; if it throws, nothing was claimed. Its
        // store is its last step: once it returns the node is queued, whatever is thrown next.
        long index = handOff.offer(lane, node);
        try {
            if (lifecycle.state() != Lifecycle.STARTED) {
                return resolveRaceWithStop(node, lane);
            }
            if (handOff.wakeAfterOffer(lane, index, elapsedDeadline)
                    || (wakeLost && (boolean) WAKE_LOST.getAndSet(this, false))) {
                LockSupport.unpark(workerThread);
            }
        } catch (Throwable t) {
            // A field write, which cannot fail where a call just did; the next producer wakes the
            // worker in our place (a wake-up too many at worst).
            wakeLost = true;
            throw t;
        }
        return node;
    }

    /**
     * Our offer raced with stop(): if the worker's final drain took the node, it is cancelled and
     * in stop()'s result, and we return it; if not, we cancel it here and refuse the call, so the
     * caller learns the truth either way.
     */
    private TimeoutNode resolveRaceWithStop(final TimeoutNode node, final int lane) {
        if (node.tryCancelUnreturned()) {
            handOff.cancelledByRace(lane);
            throw lifecycle.stopped();
        }
        return node;
    }

    /** Called by the one thread whose cancel CAS succeeded. */
    void onCancelled(final Timeout node, final int place) {
        boolean purgeDue = handOff.cancelled(handOff.laneOfCaller());
        if (purgeDue) {
            LockSupport.unpark(workerThread);
        }
        try {
            handOff.tombstone(node, place);
        } catch (Throwable deepCaller) {
            // It only spares the worker a load. Swallowed so that an Error here (a deep caller's stack
            // overflow) does not cut short the cancel's callback and the release of its task.
        }
    }

    /**
     * Whether this timer reads {@link System#nanoTime()}, so a reading of it can stand for this
     * timer's clock in {@link #schedule(TimeoutOwner, TimerTask, long, long)} (tests use manual clocks).
     *
     * @return true on the system clock
     */
    public boolean onSystemClock() {
        return clock == Clock.SYSTEM;
    }

    /** Starts the worker if it is not running; see {@code HashedWheelTimer#start()}. */
    public void start() {
        lifecycle.start();
    }

    /**
     * Stops the worker and returns the timeouts it cancelled; see {@link Timer#stop()}.
     *
     * @return the pending timeouts, cancelled, each already told through {@code cancelled()}
     */
    public Set<Timeout> stop() {
        // Unregistered before the stop, not after: a failure after lifecycle.stop() returned (a deep
        // caller's StackOverflowError in this call) would lose the set it reported. The statistics
        // event only misses its last poll. A task's stop() on the worker is refused first, as it
        // leaves the timer running.
        lifecycle.refuseWorkerThread();
        JfrSupport.unregister(this);
        return lifecycle.stop();
    }

    /**
     * Returns the number of pending timeouts; see {@link Timer#pendingTimeouts()}.
     *
     * @return the count
     */
    public long pendingTimeouts() {
        return lifecycle.isTerminated() ? 0 : handOff.pending();
    }

    /**
     * Takes a snapshot of this timer's statistics; see {@link StatsRecorder#snapshot} for why it
     * never shows more timeouts ended than scheduled.
     *
     * @return the snapshot
     */
    @Override
    public StatsSnapshot stats() {
        return stats.snapshot(handOff::cancelledCount, handOff::scheduledCount, handOff.rejectedByLimit());
    }

    @Override
    public String statsName() {
        return stats.timerName();
    }

    /**
     * Returns how many expired tasks the task executor refused.
     *
     * @return the count
     */
    public long rejectedTasks() {
        return lifecycle.rejectedTasks();
    }

    /**
     * Returns the worker thread, for tests and diagnostics.
     *
     * @return the thread
     */
    public Thread workerThread() {
        return workerThread;
    }

    /** Stops without waiting, as the leak guard does; for test rigs that run the loop themselves. */
    void stopAsync() {
        lifecycle.stopAsync();
    }

    /** The worker's final drain (null before it); for test rigs that run the loop themselves. */
    Set<Timeout> drained() {
        return lifecycle.drained();
    }

    /** How many timeouts the worker retired; for test rigs. */
    long retiredCount() {
        return handOff.retiredCount();
    }

    /** How many timeouts callers cancelled; for test rigs. */
    long cancelledCount() {
        return handOff.cancelledCount();
    }

    /**
     * What a timeout keeps: its public timer, returned by {@link Timeout#timer()}, and the engine
     * it tells about a cancel. Held by the facade and its pending timeouts, never by the engine.
     */
    private static final class Binding implements TimeoutOwner {
        private final Timer facade;
        private final TimerCore core;

        Binding(final Timer facade, final TimerCore core) {
            this.facade = facade;
            this.core = core;
        }

        @Override
        public Timer timer() {
            return facade;
        }

        @Override
        public void onCancelled(final Timeout node, final int place) {
            core.onCancelled(node, place);
        }

        @Override
        public System.Logger logger() {
            return core.logger;
        }

        @Override
        public long nanoTime() {
            return core.clock.nanoTime();
        }
    }
}
