package io.tickwheel.internal;

import io.tickwheel.Timeout;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
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
 * <h2>Waking the worker</h2>
 * New nodes may wait in the hand-off queue: most request timeouts are cancelled long before
 * they are due, and a node cancelled while still queued costs the worker one look instead of a
 * link and an unlink. So the worker takes the queue only when its earliest deadline comes due,
 * when the backlog reaches {@link #TRANSFER_BATCH}, or before a purge. To know the earliest
 * deadline, producers keep {@code QUEUED_MIN}: after its offer, a producer lowers it by CAS if
 * its own deadline is earlier, and only then loads {@code PARK_DEADLINE} (volatile), unparking the
 * worker if it parks past that deadline. The worker stores its park deadline (volatile), then
 * loads {@code QUEUED_MIN} (volatile) and sleeps no later than it: whichever side goes second
 * sees the other, so no queued node is slept past, and only a producer with a new earliest
 * deadline can pay for an unpark. Two thresholds bound memory while the worker sleeps: the
 * producer whose offer makes the backlog {@link #TRANSFER_BATCH} long, and the canceller
 * whose cancel makes a purge worth it ({@code PURGE_AT}), unpark it as well.
 *
 * <p>Threading: worker thread only, except {@link #unprocessed()}, which the stopping thread
 * reads after seeing the core's volatile {@code terminated} flag, written after the drain.
 */
final class Worker implements Runnable {

    /**
     * Backlog length at which a producer wakes a sleeping worker to take the queue, and the most
     * one transfer takes before the wheel advances again: long enough that in request-timeout
     * churn most nodes are cancelled before the worker ever links them (about 3 MB of nodes).
     */
    static final long TRANSFER_BATCH = 1 << 16;
    /** Fewest stale cancelled nodes worth a purge pass. */
    static final long PURGE_MIN = 1 << 10;

    private final TimerCore core;
    private final TimingWheel wheel;
    private final Consumer<TimeoutNode> expiry = this::expire;
    /** Runs expired tasks, or null to run them on this thread. */
    private final Executor taskExecutor;
    /** Written by this thread, read by any (diagnostics and tests). */
    private final AtomicLong rejectedTasks = new AtomicLong();
    /** Mirrors Cells.RETIRED; the worker is its only writer. */
    private long retired;
    /** Cancelled nodes dropped here rather than in the wheel: off the queue, or lost expiry races. */
    private long droppedHere;
    private Set<Timeout> unprocessed;

    Worker(final TimerCore core, final TimingWheel wheel, final Executor taskExecutor) {
        this.core = core;
        this.wheel = wheel;
        this.taskExecutor = taskExecutor;
    }

    @Override
    public void run() {
        boolean reportsDrain = false;
        try {
            loop();
        } catch (Throwable t) {
            // Refuse new timeouts before logging: the log call runs the application's logging
            // backend, which may throw too, and a timeout accepted now would never end.
            reportsDrain = core.forceStop();
            core.logger().log(System.Logger.Level.ERROR,
                    "The worker of " + core.name() + " failed; the timer is stopped", t);
        } finally {
            try {
                unprocessed = drainAll();
                if (reportsDrain) {
                    core.reportFailedDrain(unprocessed);
                }
            } finally {
                core.terminated();
            }
        }
    }

    private void loop() {
        Clock clock = core.clock();
        while (core.isStarted()) {
            long now = clock.nanoTime();
            if (transferDue(now)) {
                transfer();
                purgeIfWorthIt();
            }
            wheel.advance(now, expiry);
            park(clock.nanoTime());
        }
    }

    /** Whether the queue must be taken now: a queued node is due, or a threshold was reached. */
    private boolean transferDue(final long nowNanos) {
        PaddedLongs counters = core.counters;
        return counters.getVolatile(Cells.QUEUED_MIN) <= nowNanos - core.originNanos
                || core.inbound.producedCount() > counters.getVolatile(Cells.TRANSFER_AT)
                || counters.getVolatile(Cells.CANCELLED) >= counters.getVolatile(Cells.PURGE_AT);
    }

    private void transfer() {
        NodeQueue inbound = core.inbound;
        // Volatile, before the polls: a producer that still saw the old bound has offered before
        // this store, so the polls below reach its node (see the class comment).
        core.counters.setVolatile(Cells.QUEUED_MIN, Cells.NONE);
        TimeoutNode node = null;
        for (long taken = 0; taken < TRANSFER_BATCH && (node = inbound.poll()) != null; taken++) {
            if (node.isCancelled()) {
                droppedHere++;
            } else {
                wheel.add(node);
            }
        }
        if (node != null) {
            // Producers outpace us: leave the rest for the next pass, so due timeouts still expire
            // in between, and keep the bound at "due now" (not NONE, which would let us sleep past
            // a queued node whose producer saw the bound we just cleared).
            core.counters.setVolatile(Cells.QUEUED_MIN, Long.MIN_VALUE);
        }
        core.counters.setVolatile(Cells.TRANSFER_AT, inbound.consumedCount() + TRANSFER_BATCH - 1);
    }

    private void expire(final TimeoutNode node) {
        if (!node.tryExpire()) {
            // cancel() won between the wheel's check and our CAS; the canceller counted it.
            droppedHere++;
            return;
        }
        retire();
        if (taskExecutor == null) {
            node.runTask();
            return;
        }
        try {
            taskExecutor.execute(node::runTask);
        } catch (Throwable t) {
            // Never silent: the task is expired (it was handed over) but will not run.
            rejectedTasks.incrementAndGet();
            core.logger().log(System.Logger.Level.ERROR, "The task executor of " + core.name()
                    + " refused expired TimerTask " + TimeoutNode.describe(node.task()) + "; it will not run", t);
        }
    }

    long rejectedTasks() {
        return rejectedTasks.get();
    }

    private void retire() {
        retired++;
        // Release: pairs with the acquire load in TimerCore.pendingTimeouts.
        core.counters.setRelease(Cells.RETIRED, retired);
        core.releasePermit();
    }

    /**
     * Purges when the cancelled nodes still linked are at least as many as the live ones, so a
     * purge's cost (one pass over the wheel) is paid for by as many cancels: amortized O(1) per
     * cancel, and garbage stays within max(live, {@link #PURGE_MIN}) plus what is still queued.
     */
    private void purgeIfWorthIt() {
        long cancelled = core.counters.getVolatile(Cells.CANCELLED);
        long stale = cancelled - droppedHere - wheel.droppedCancelled();
        long live = wheel.size() - Math.max(0, stale);
        if (stale >= Math.max(PURGE_MIN, live)) {
            wheel.purgeCancelled();
            stale = cancelled - droppedHere - wheel.droppedCancelled();
            live = wheel.size();
        }
        // Each cancel of a linked node moves one from live to stale, so the purge test below
        // (stale >= max(PURGE_MIN, live)) first holds after max(PURGE_MIN - s, ceil((live - s) / 2))
        // more cancels, not max(PURGE_MIN, live) - s: waking later lets garbage outgrow live.
        long linkedStale = Math.max(0, stale);
        long wanted = Math.max(PURGE_MIN - linkedStale, (live - linkedStale + 1) / 2);
        // Volatile: pairs with the cancellers' volatile load in TimerCore.onCancelled.
        core.counters.setVolatile(Cells.PURGE_AT, cancelled + Math.max(1, wanted));
    }

    private void park(final long nowNanos) {
        long elapsedNow = nowNanos - core.originNanos;
        long wait = wheel.nanosUntilNextTick(nowNanos);
        long deadline = wait == TimingWheel.NEVER ? Long.MAX_VALUE : TimerCore.elapsedDeadline(elapsedNow, wait);
        PaddedLongs counters = core.counters;
        // Volatile store, then the volatile load of QUEUED_MIN: our half of the handshake with
        // TimerCore.schedule (lower QUEUED_MIN, then load PARK_DEADLINE).
        counters.setVolatile(Cells.PARK_DEADLINE, deadline);
        long queuedMin = counters.getVolatile(Cells.QUEUED_MIN);
        if (queuedMin < deadline) {
            // Wake at the start of the tick the earliest queued node is due in, not before it.
            long tick = wheel.tickNanos;
            long boundary = queuedMin / tick * tick;
            deadline = boundary == queuedMin ? queuedMin : TimerCore.elapsedDeadline(boundary, tick);
        }
        if (wait == 0 || deadline <= elapsedNow || transferDue(nowNanos) || !core.isStarted()) {
            counters.setRelease(Cells.PARK_DEADLINE, Cells.AWAKE);
            return;
        }
        if (deadline == Long.MAX_VALUE) {
            LockSupport.park(this);
        } else {
            LockSupport.parkNanos(this, deadline - elapsedNow);
        }
        counters.setRelease(Cells.PARK_DEADLINE, Cells.AWAKE);
        // Only stop() ends the worker; a stray interrupt would make every later park return at once.
        Thread.interrupted();
    }

    /** Cancels every pending node, from the queue (racing producers included) and the wheel. */
    private Set<Timeout> drainAll() {
        Set<Timeout> pending = new HashSet<>();
        Consumer<TimeoutNode> collect = node -> {
            if (node.tryCancelQuietly()) {
                pending.add(node);
                retire();
            }
        };
        TimeoutNode node;
        while ((node = core.inbound.poll()) != null) {
            collect.accept(node);
        }
        wheel.drainTo(collect);
        return pending;
    }

    /** The timeouts cancelled by the final drain; read by the stopping thread after join. */
    Set<Timeout> unprocessed() {
        return unprocessed;
    }
}
