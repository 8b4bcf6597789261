package io.tickwheel.internal;

import io.tickwheel.Timeout;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The worker thread's loop: move handed-off nodes into the wheel, advance the wheel to now,
 * expire what is due, drop cancelled nodes when enough have piled up, and park until the next
 * tick that has work, or indefinitely when the wheel is empty. On stop it cancels and collects
 * everything still pending, including nodes offered by producers racing with stop().
 *
 * <p>It parks with {@link LockSupport}. An interrupt does not stop it (only {@code stop()} does);
 * it is cleared so that parking does not turn into spinning.
 *
 * <p>When it takes the queue and when producers wake it is the {@link HandOff}'s handshake; what
 * it may ask of the lifecycle is {@link WorkerControl}. It reads no field of the engine.
 *
 * <h2>What it measures</h2>
 * It is the only writer of its {@link StatsRecorder}'s expiries, wake-ups and lateness. A fire's
 * lateness is its start time minus its deadline. A task run here is timed, and the next fire
 * dated, by {@link InlineTiming}: one clock reading per task, or per group of a pass's tasks
 * once tiny tasks come in a steady run. A task handed to the executor is dated by the pass's
 * reading and timed on the executor
 * ({@link TimedTask}).
 *
 * <p>Threading: worker thread only, except {@link #unprocessed()}, which the stopping thread
 * reads after seeing the lifecycle's volatile {@code terminated} flag, written after the drain.
 */
final class Worker implements Runnable {

    private final WorkerControl control;
    private final HandOff handOff;
    /** The timeouts this thread's tasks schedule, or null with a pending limit (they use the queue). */
    private final OwnLane ownLane;
    private final TimingWheel wheel;
    private final Clock clock;
    private final long originNanos;
    private final String name;
    private final System.Logger logger;
    private final Consumer<TimeoutNode> expiry = this::expire;
    private final Consumer<TimeoutNode> transferExpiry = this::expireFromTransfer;
    /** Runs expired tasks, or null to run them on this thread. */
    private final Executor taskExecutor;
    private final StatsRecorder stats;
    /** Times the tasks run here and dates every fire of a pass. */
    private final InlineTiming timing;
    /** Set by the one call that runs the worker; see {@link #runIfFirst()}. */
    private final AtomicBoolean ran = new AtomicBoolean();
    /** Mirrors the hand-off's retired cell; the worker is its only writer. */
    private long retired;
    /** The wheel's size at the transfer's latest clock reading; worker thread only. */
    private long sizeAtReading;
    /**
     * Cancelled nodes dropped here rather than in the wheel: off the queue, or lost expiry races.
     * The races are counted inside the transfers (their expiries), so a transfer's own count is
     * added after the call returns, never as {@code droppedHere += transfer(...)}: that loads the
     * field before the call and overwrote them.
     */
    private long droppedHere;
    private Set<Timeout> unprocessed;

    /**
     * Creates the worker of one timer.
     *
     * @param control the lifecycle it reports to
     * @param handOff the queue and handshake it consumes
     * @param wheel the wheel it alone drives
     * @param options the timer's clock, name and task executor
     * @param originNanos the clock reading where the wheel's tick 0 starts
     * @param stats what it records its measurements in
     */
    Worker(final WorkerControl control, final HandOff handOff, final TimingWheel wheel,
            final TimerOptions options, final long originNanos, final StatsRecorder stats) {
        this.control = control;
        this.handOff = handOff;
        this.ownLane = handOff.ownLane();
        this.wheel = wheel;
        this.clock = options.clock();
        this.originNanos = originNanos;
        this.name = options.name();
        this.logger = options.logger();
        this.taskExecutor = options.taskExecutor();
        this.stats = stats;
        this.timing = new InlineTiming(clock, stats);
    }

    @Override
    public void run() {
        runIfFirst();
    }

    /**
     * Runs the worker unless it has run (or is running) already: a ThreadFactory's thread that was
     * started behind the core's back, and the core's own drain after a failed {@code Thread.start()},
     * must never be two workers at once.
     *
     * @return true if this call ran it
     */
    boolean runIfFirst() {
        if (!ran.compareAndSet(false, true)) {
            return false;
        }
        runLoopAndDrain();
        return true;
    }

    private void runLoopAndDrain() {
        boolean reportsDrain = false;
        try {
            loop();
        } catch (Throwable t) {
            // An open group's time ends here, not after the stop and the log below, and the
            // stopped timer must not keep its tasks.
            timing.release();
            // Refuse new timeouts before logging: the log call runs the application's logging
            // backend, which may throw too, and a timeout accepted now would never end.
            reportsDrain = control.forceStop();
            logger.log(System.Logger.Level.ERROR, "The worker of " + name + " failed; the timer is stopped", t);
        } finally {
            try {
                unprocessed = drainAll();
                if (reportsDrain) {
                    control.reportFailedDrain(unprocessed);
                }
            } finally {
                control.terminated();
            }
        }
    }

    private void loop() {
        while (control.isStarted()) {
            long now = clock.nanoTime();
            // Before the transfer: it expires the nodes it finds already due.
            timing.passStarted(now);
            boolean queueDue = handOff.queueDue(now - originNanos);
            if (queueDue || handOff.purgeDue()) {
                sizeAtReading = wheel.size();
                // Each leaves no group open.
                long dropped = queueDue ? handOff.transferTo(wheel, transferExpiry)
                        : handOff.transferOld(wheel, transferExpiry);
                droppedHere += dropped;
                purgeIfWorthIt(queueDue);
                // A big backlog or a purge can take milliseconds: not the next task's time.
                timing.resync();
            }
            wheel.advance(now, expiry);
            timing.flush();
            linkOwnLane();
            park(clock.nanoTime());
        }
    }

    /**
     * Links what the tasks of this pass scheduled from this thread; due ones expire now, as from
     * a transfer, and what their tasks schedule waits for the next pass (park does not sleep then).
     */
    private void linkOwnLane() {
        if (!ownLaneEmpty()) {
            sizeAtReading = wheel.size();
            long dropped = ownLane.linkInto(wheel, transferExpiry);
            droppedHere += dropped;
        }
    }

    /**
     * Expires a node the transfer found due. If the transfer placed nodes since the latest
     * reading (a backlog can take milliseconds), that work is neither this task's time nor before
     * this fire, so the clock is read again; a run of due nodes with nothing placed between them
     * costs no extra reading. The task is then timed alone: a group left open here would take in
     * whatever the transfer places before its next due node.
     */
    private void expireFromTransfer(final TimeoutNode node) {
        long size = wheel.size();
        if (size != sizeAtReading) {
            sizeAtReading = size;
            timing.resync();
        }
        expire(node);
        timing.flush();
    }

    private void expire(final TimeoutNode node) {
        if (!node.tryExpire()) {
            // cancel() won between the wheel's check and our CAS; the canceller counted it.
            droppedHere++;
            return;
        }
        retire();
        stats.expired(timing.fireNanos() - node.deadlineNanos);
        if (taskExecutor == null) {
            timing.run(node);
            return;
        }
        try {
            taskExecutor.execute(new TimedTask(node, stats, clock));
        } catch (Throwable t) {
            // Never silent: the task is expired (it was handed over) but will not run, unless it is
            // one of our own hand-offs, which is safe to run here and must not leave a future pending.
            stats.executorRejected();
            boolean ownHandOff = node.task() instanceof HandOffTask;
            if (ownHandOff) {
                node.runTask(); // before logging, which runs the application's backend and may throw
            }
            TimeoutNode.logThrown(logger, System.Logger.Level.ERROR, "The task executor of " + name
                    + " refused expired TimerTask " + TimeoutNode.describe(node.task())
                    + (ownHandOff ? "; it only hands work on, so it ran on the worker thread instead"
                            : "; it will not run"), t);
        }
    }

    long rejectedTasks() {
        return stats.executorRejections();
    }

    private void retire() {
        retired++;
        handOff.retired(retired);
    }

    /**
     * Drops cancelled nodes when there are at least as many as live ones, so that a pass is paid
     * for by as many cancels: amortized O(1) per cancel, and garbage, queued or linked, stays
     * within max(live, {@link HandOff#PURGE_MIN}).
     *
     * <p>A purge's transfer took the nodes offered before the previous one (see {@link HandOff}'s
     * "A purge leaves the youngest nodes queued"). If the garbage is still at the bound, younger
     * nodes are taken (lane by lane, each lane's oldest first) until half of it is left, so the
     * next purge is still half the bound away; a move that took its most before that leaves the
     * rest to the next pass. The wheel is purged when the garbage is still at the bound after
     * that (the rest of it is linked), or when its own cancelled nodes are at least as many as its
     * live ones ({@link #linkedStaleWorthAPurge}).
     *
     * @param queueTaken whether the whole queue was just taken
     */
    private void purgeIfWorthIt(final boolean queueTaken) {
        long cancelled = handOff.cancelledCount();
        long live = handOff.pending(); // never negative (see HandOff)
        long bound = Math.max(HandOff.PURGE_MIN, live);
        long stale = stale(cancelled);
        if (!queueTaken && stale >= bound) {
            long dropped = handOff.transferUntilDropped(wheel, transferExpiry, stale - bound / 2);
            droppedHere += dropped;
            stale = stale(cancelled);
            if (stale >= bound && handOff.transferFilled()) {
                // One move takes at most a batch, and cancels that all landed before this wake-up
                // can leave more than that queued. No cancel may come to wake us again, so the
                // next pass (after the wheel advanced) takes the rest; each such pass moves a batch.
                // The wheel is purged now only if its own garbage is worth it.
                if (linkedStaleWorthAPurge(stale)) {
                    wheel.purgeCancelled();
                }
                handOff.purgeNextPass();
                return;
            }
        }
        if (stale >= bound || linkedStaleWorthAPurge(stale)) {
            wheel.purgeCancelled();
            stale = stale(cancelled);
        }
        // Each cancel moves one timeout from live to stale, so the bound (stale >= max(PURGE_MIN,
        // live)) is reached after max(PURGE_MIN - s, ceil((live - s) / 2)) more cancels, not
        // max(PURGE_MIN, live) - s: waking later lets garbage outgrow live.
        long s = Math.max(0, stale);
        long wanted = Math.max(HandOff.PURGE_MIN - s, (live - s + 1) / 2);
        handOff.purgeAt(cancelled + Math.max(1, wanted));
    }

    /**
     * Whether the wheel holds at least as many cancelled nodes as live ones (and PURGE_MIN):
     * {@code stale - backlog} can only undercount them, since some queued nodes are live.
     */
    private boolean linkedStaleWorthAPurge(final long stale) {
        long linkedStale = Math.max(0, stale - handOff.backlog());
        return linkedStale >= Math.max(HandOff.PURGE_MIN, wheel.size() - linkedStale);
    }

    /** Cancelled timeouts not yet dropped, queued or linked, of the {@code cancelled} counted. */
    private long stale(final long cancelled) {
        return cancelled - droppedHere - wheel.droppedCancelled();
    }

    private void park(final long nowNanos) {
        long elapsedNow = nowNanos - originNanos;
        long wait = wheel.nanosUntilNextTick(nowNanos);
        long deadline = wait == TimingWheel.NEVER ? Long.MAX_VALUE : Ticks.elapsedDeadline(elapsedNow, wait);
        long transferStart = handOff.parking(deadline);
        if (transferStart < deadline) {
            // Wake at the start of the tick the queue must be taken in, not before it.
            deadline = Ticks.alignUp(transferStart, wheel.tickNanos());
        }
        if (wait == 0 || deadline <= elapsedNow || handOff.transferDue(elapsedNow) || !handOff.lookAgainLater()
                || !ownLaneEmpty() || !control.isStarted()) {
            handOff.awake();
            return;
        }
        if (deadline == Long.MAX_VALUE) {
            LockSupport.park(this);
        } else {
            LockSupport.parkNanos(this, deadline - elapsedNow);
        }
        handOff.awake();
        stats.wokeUp();
        // Only stop() ends the worker; a stray interrupt would make every later park return at once.
        Thread.interrupted();
    }

    private boolean ownLaneEmpty() {
        return ownLane == null || ownLane.isEmpty();
    }

    /** Cancels every pending node, from the queues (racing producers included) and the wheel. */
    private Set<Timeout> drainAll() {
        Set<Timeout> pending = new HashSet<>();
        Consumer<TimeoutNode> collect = node -> {
            if (node.tryCancelQuietly()) {
                pending.add(node);
                retire();
                stats.drained();
            }
        };
        handOff.drainTo(collect);
        wheel.drainTo(collect);
        return pending;
    }

    /** The timeouts cancelled by the final drain; read by the stopping thread after join. */
    Set<Timeout> unprocessed() {
        return unprocessed;
    }
}
