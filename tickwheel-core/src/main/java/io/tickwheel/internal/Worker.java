package io.tickwheel.internal;

import io.tickwheel.Timeout;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The worker thread's loop: move handed-off nodes into the wheel, advance the wheel to now,
 * expire what is due, drop cancelled nodes when enough have piled up, and park until the next
 * tick that has work, or indefinitely when the wheel is empty. On stop it cancels and collects
 * everything still pending, including nodes offered by producers racing with stop().
 *
 * <p>It parks with {@link LockSupport}; the wake-up protocol with producers is described on
 * {@link TimerCore}. An interrupt does not stop it (only {@code stop()} does); it is cleared so
 * that parking does not turn into spinning.
 *
 * <p>Threading: worker thread only, except {@link #unprocessed()}, which the stopping thread
 * reads after {@code Thread.join} (the join is the happens-before edge).
 */
final class Worker implements Runnable {

    /** Backlog length at which a producer wakes a sleeping worker; bounds the queue's memory. */
    static final long TRANSFER_BATCH = 1 << 14;
    /** Fewest stale cancelled nodes worth a purge pass. */
    static final long PURGE_MIN = 1 << 10;

    private final TimerCore core;
    private final TimingWheel wheel;
    private final Consumer<TimeoutNode> expiry = this::expire;
    /** Mirrors TimerCore.RETIRED; the worker is its only writer. */
    private long retired;
    /** Cancelled nodes dropped here rather than in the wheel: off the queue, or lost expiry races. */
    private long droppedHere;
    private Set<Timeout> unprocessed;

    Worker(final TimerCore core, final TimingWheel wheel) {
        this.core = core;
        this.wheel = wheel;
    }

    @Override
    public void run() {
        try {
            loop();
        } catch (Throwable t) {
            core.logger().log(System.Logger.Level.ERROR,
                    "The worker of " + core.name() + " failed; the timer is stopped", t);
            core.forceStop();
        } finally {
            unprocessed = drainAll();
            core.terminated();
        }
    }

    private void loop() {
        Clock clock = core.clock();
        while (core.isStarted()) {
            transfer();
            wheel.advance(clock.nanoTime(), expiry);
            // Tasks that ran may have scheduled more (re-armed heartbeats): take them now rather
            // than paying a wake-up for them.
            transfer();
            purgeIfWorthIt();
            park(clock.nanoTime());
        }
    }

    private void transfer() {
        NodeQueue inbound = core.inbound;
        TimeoutNode node;
        while ((node = inbound.poll()) != null) {
            if (node.isCancelled()) {
                droppedHere++;
            } else {
                wheel.add(node);
            }
        }
        // Release: pairs with the producers' acquire load in TimerCore.schedule.
        core.counters.setRelease(TimerCore.TRANSFER_AT, inbound.consumedCount() + TRANSFER_BATCH - 1);
    }

    private void expire(final TimeoutNode node) {
        if (!node.tryExpire()) {
            // cancel() won between the wheel's check and our CAS; the canceller counted it.
            droppedHere++;
            return;
        }
        retire();
        core.handOff(node);
    }

    private void retire() {
        retired++;
        // Release: pairs with the acquire load in TimerCore.pendingTimeouts.
        core.counters.setRelease(TimerCore.RETIRED, retired);
        core.releasePermit();
    }

    /**
     * Purges when the cancelled nodes still linked are at least as many as the live ones, so a
     * purge's cost (one pass over the wheel) is paid for by as many cancels: amortized O(1) per
     * cancel, and the wheel never holds more garbage than live nodes (plus {@link #PURGE_MIN}).
     */
    private void purgeIfWorthIt() {
        long cancelled = core.counters.getVolatile(TimerCore.CANCELLED);
        long stale = cancelled - droppedHere - wheel.droppedCancelled();
        long live = wheel.size() - Math.max(0, stale);
        if (stale >= Math.max(PURGE_MIN, live)) {
            wheel.purgeCancelled();
            stale = cancelled - droppedHere - wheel.droppedCancelled();
            live = wheel.size();
        }
        long wanted = Math.max(PURGE_MIN, live) - Math.max(0, stale);
        // Release: pairs with the cancellers' acquire load in TimerCore.onCancelled.
        core.counters.setRelease(TimerCore.PURGE_AT, cancelled + Math.max(1, wanted));
    }

    private void park(final long nowNanos) {
        long wait = wheel.nanosUntilNextTick(nowNanos);
        if (wait == 0) {
            return;
        }
        long elapsedNow = nowNanos - core.originNanos;
        long deadline = wait == TimingWheel.NEVER ? Long.MAX_VALUE : TimerCore.elapsedDeadline(elapsedNow, wait);
        // Volatile store, then the volatile load in isEmpty(): our half of the handshake with
        // TimerCore.schedule (offer, then load PARK_DEADLINE).
        core.counters.setVolatile(TimerCore.PARK_DEADLINE, deadline);
        if (!core.inbound.isEmpty()) {
            // Producers that offered before seeing our deadline did not compare against it: look
            // again at the next tick boundary instead of spinning on a busy queue.
            wait = Math.min(wait, Math.max(1, wheel.nanosUntilTick(wheel.currentTick() + 1, nowNanos)));
        }
        if (core.isStarted()) {
            if (wait == TimingWheel.NEVER) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, wait);
            }
        }
        core.counters.setRelease(TimerCore.PARK_DEADLINE, TimerCore.AWAKE);
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
