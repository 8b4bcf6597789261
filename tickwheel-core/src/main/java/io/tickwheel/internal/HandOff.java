package io.tickwheel.internal;

import java.util.function.Consumer;

/**
 * The hand-off between the threads that schedule and cancel and the one worker: the queue new
 * nodes wait in, the counters both sides keep, and the handshake that decides when a producer
 * or a canceller must wake the worker. The engine ({@link TimerCore}) calls the producer half,
 * the {@link Worker} the consumer half; neither touches the other's state.
 *
 * <h2>Waking the worker</h2>
 * New nodes wait in the queue until the worker needs them: most request timeouts are cancelled
 * long before they are due, and a node cancelled while still queued costs the worker one look
 * instead of a link and an unlink; a far-future node linked now would only be touched again
 * later. So the worker takes the queue when its earliest deadline comes due, or earlier by the
 * time the backlog takes to move ({@link #transferStart}: a long backlog must be moving before
 * the node it holds is due), or before a purge. To know the earliest deadline, producers keep
 * {@code QUEUED_MIN}: after its offer, a producer lowers it by CAS if its own deadline is
 * earlier, and only then loads {@code PARK_DEADLINE} (volatile), waking the worker if it parks
 * past that node's transfer start. The worker stores its park deadline (volatile), then loads
 * {@code QUEUED_MIN} (volatile) and sleeps no later than its transfer start: whichever side goes
 * second sees the other, so no queued node is slept past, and only a producer with a new
 * earliest deadline can pay for an unpark. The backlog keeps growing while the worker sleeps,
 * and with it the time a transfer takes, so the producer whose offer passes {@code TRANSFER_AT}
 * ({@link #TRANSFER_BATCH} offers after the worker last looked) wakes it to look again; a
 * canceller whose cancel makes a purge worth it ({@code PURGE_AT}) wakes it too, which bounds
 * the garbage of cancelled nodes, queued or linked.
 *
 * <h2>Counting without a shared counter on the schedule path</h2>
 * pending = scheduled - retired - cancelled, where "scheduled" is the queue's producer index
 * (each offer claims one), "retired" is counted by the worker alone (expired, or cancelled by
 * stop) and "cancelled" by the threads whose cancel CAS succeeded. {@link #pending()} loads
 * retired and cancelled before scheduled: a timeout is scheduled before it can retire, so the
 * result is never negative, and it is exact whenever no call is in flight.
 *
 * <p>All deadlines here are elapsed nanoseconds since the timer's origin.
 *
 * <p>Threading: the producer half ({@link #offer}, {@link #wakeAfterOffer}, {@link #cancelled},
 * {@link #pending()}) from any thread; the consumer half ({@link #transferDue}, {@link #transferTo},
 * {@link #poll()}, {@link #parking}, {@link #lookAgainLater()}, {@link #awake()}, {@link #retired(long)},
 * {@link #purgeAt(long)}) from the worker thread only. Each cell's access mode is documented.
 */
final class HandOff {

    /**
     * The most one transfer takes before the wheel advances again, how many offers a sleeping
     * worker lets pass before it looks at the backlog again, and the backlog that needs no head
     * start (moving it takes about a millisecond).
     */
    static final long TRANSFER_BATCH = 1 << 16;
    /**
     * Fewest stale cancelled nodes worth a purge pass (2 MB of nodes): each purge is a wake-up
     * and a pass over the wheel, so under request-timeout churn this sets how often the worker
     * runs, and the bound on garbage, max(live, this), what that costs in memory.
     */
    static final long PURGE_MIN = 1 << 16;
    /**
     * What moving one queued node into the wheel may take, with room to spare (it takes 20 to
     * 40 ns): the head start a backlog gets before its earliest node is due.
     */
    static final long TRANSFER_NANOS_PER_NODE = 100;

    /** Cell: cancels by cancel() and lost races; any thread, atomic add. */
    private static final int CANCELLED = 0;
    /** Cell: timeouts the worker expired or cancelled on stop; worker release, readers acquire. */
    private static final int RETIRED = 1;
    /** Cell: elapsed park deadline, AWAKE while not parked; worker volatile, producers volatile. */
    private static final int PARK_DEADLINE = 2;
    /** Cell: the producer index whose offer wakes the worker; worker volatile, producers volatile. */
    private static final int TRANSFER_AT = 3;
    /** Cell: the cancel count whose cancel wakes the worker; worker volatile, cancellers volatile. */
    private static final int PURGE_AT = 4;
    /**
     * Cell: at most the earliest elapsed deadline of the nodes still queued, NONE when the queue
     * was emptied; producers lower it by CAS, the worker resets it (volatile) before it polls.
     */
    private static final int QUEUED_MIN = 5;
    private static final int CELL_COUNT = 6;
    /** QUEUED_MIN when nothing is queued. */
    static final long NONE = Long.MAX_VALUE;
    /** PARK_DEADLINE while the worker is not parked. */
    private static final long AWAKE = Long.MIN_VALUE;

    /** Package-private for tests that inject faults into it. */
    final NodeQueue queue = new NodeQueue();
    private final PaddedLongs cells = new PaddedLongs(CELL_COUNT);

    HandOff() {
        cells.setRelease(PARK_DEADLINE, AWAKE);
        cells.setRelease(TRANSFER_AT, TRANSFER_BATCH - 1);
        cells.setRelease(PURGE_AT, PURGE_MIN);
        cells.setRelease(QUEUED_MIN, NONE);
    }

    // ---- producers and cancellers (any thread) ----

    /**
     * Makes the pending limit for this hand-off's counts.
     *
     * @param max the most pending timeouts, or 0 or less for none
     * @return the limit, or null for none
     */
    PendingLimit newLimit(final long max) {
        return PendingLimit.of(max, cells, RETIRED, CANCELLED);
    }

    /**
     * Queues {@code node}; its fields are published by the queue's release store.
     *
     * @return the node's index, for {@link #wakeAfterOffer}
     */
    long offer(final TimeoutNode node) {
        return queue.offer(node);
    }

    /**
     * Queues {@code node} if {@code limit} allows one more pending timeout; the check and the claim
     * are one step, so a refusal (or an Error) claims nothing.
     *
     * @param limit the pending limit, or null for none
     * @return the node's index, for {@link #wakeAfterOffer}
     */
    long offer(final TimeoutNode node, final PendingLimit limit) {
        return queue.offer(node, limit);
    }

    /**
     * The producer's half of the handshake, after its offer: whether the worker must be woken
     * because this node is the earliest queued and due before the worker's park ends, or because
     * it made the backlog {@link #TRANSFER_BATCH} long.
     */
    boolean wakeAfterOffer(final long index, final long elapsedDeadline) {
        if (lowerQueuedMin(elapsedDeadline)) {
            long backlog = index + 1 - queue.consumedCount();
            if (transferStart(elapsedDeadline, backlog) < cells.getVolatile(PARK_DEADLINE)) {
                return true;
            }
        }
        return index == cells.getVolatile(TRANSFER_AT);
    }

    /**
     * When the worker must start taking a queue of {@code backlog} nodes whose earliest is due
     * at {@code elapsedDeadline}: then, for a backlog of up to {@link #TRANSFER_BATCH} (one pass
     * moves it), else earlier by {@link #TRANSFER_NANOS_PER_NODE} per node, saturated.
     */
    static long transferStart(final long elapsedDeadline, final long backlog) {
        if (backlog <= TRANSFER_BATCH) {
            return elapsedDeadline;
        }
        long lead = backlog >= Long.MAX_VALUE / TRANSFER_NANOS_PER_NODE ? Long.MAX_VALUE
                : backlog * TRANSFER_NANOS_PER_NODE;
        long start = elapsedDeadline - lead;
        return start > elapsedDeadline ? Long.MIN_VALUE : start;
    }

    /**
     * Lowers QUEUED_MIN to {@code elapsedDeadline} if that is earlier. A node no earlier than the
     * current bound needs nothing: the worker will take the queue by then anyway.
     *
     * @return true if this node is now the earliest queued one
     */
    private boolean lowerQueuedMin(final long elapsedDeadline) {
        long current = cells.getVolatile(QUEUED_MIN);
        while (elapsedDeadline < current) {
            long witness = cells.compareAndExchange(QUEUED_MIN, current, elapsedDeadline);
            if (witness == current) {
                return true;
            }
            current = witness;
        }
        return false;
    }

    /**
     * Counts one cancel, by the thread whose cancel CAS succeeded.
     *
     * @return whether this cancel made a purge worth a wake-up
     */
    boolean cancelled() {
        long count = cells.getAndAdd(CANCELLED, 1) + 1;
        return count == cells.getVolatile(PURGE_AT);
    }

    /** Counts one cancel by a producer that lost its race with stop(): no purge to wake for. */
    void cancelledByRace() {
        cells.getAndAdd(CANCELLED, 1);
    }

    /**
     * Returns scheduled - retired - cancelled; see the class comment.
     *
     * @return the pending count
     */
    long pending() {
        long retired = cells.getAcquire(RETIRED);
        long cancelled = cells.getVolatile(CANCELLED);
        return queue.producedCount() - retired - cancelled;
    }

    /** Retired count so far (acquire); for tests and diagnostics. */
    long retiredCount() {
        return cells.getAcquire(RETIRED);
    }

    /** Offers so far: every timeout ever scheduled (the queue's producer index); any thread. */
    long scheduledCount() {
        return queue.producedCount();
    }

    /** Cancel count so far (volatile); any thread. */
    long cancelledCount() {
        return cells.getVolatile(CANCELLED);
    }

    // ---- the worker ----

    /** Whether the queue must be taken now: its transfer start has come, or a purge is due. */
    boolean transferDue(final long elapsedNow) {
        return transferStart(cells.getVolatile(QUEUED_MIN), backlog()) <= elapsedNow
                || cells.getVolatile(CANCELLED) >= cells.getVolatile(PURGE_AT);
    }

    /** Nodes offered and not yet taken; any thread (a snapshot). */
    long backlog() {
        return queue.producedCount() - queue.consumedCount();
    }

    /**
     * Sets the offer that wakes a sleeping worker to look at the backlog again, {@link #TRANSFER_BATCH}
     * offers from now (volatile store), then loads the producer index (volatile): if producers got
     * there first, the worker must not sleep.
     *
     * @return whether the worker may park
     */
    boolean lookAgainLater() {
        long at = queue.producedCount() + TRANSFER_BATCH - 1;
        cells.setVolatile(TRANSFER_AT, at);
        return queue.producedCount() <= at;
    }

    /**
     * Moves up to {@link #TRANSFER_BATCH} queued nodes into {@code wheel}, dropping the ones
     * already cancelled and giving {@code due} the ones whose tick the wheel has already passed.
     *
     * @return how many cancelled nodes were dropped
     */
    long transferTo(final TimingWheel wheel, final Consumer<TimeoutNode> due) {
        // Volatile, before the polls: a producer that still saw the old bound has offered before
        // this store, so the polls below reach its node (see the class comment).
        cells.setVolatile(QUEUED_MIN, NONE);
        long dropped = 0;
        TimeoutNode node = null;
        for (long taken = 0; taken < TRANSFER_BATCH && (node = queue.poll()) != null; taken++) {
            if (node.isCancelled()) {
                dropped++;
            } else if (!wheel.addUnlessDue(node)) {
                due.accept(node);
            }
        }
        if (node != null) {
            // Producers outpace us: leave the rest for the next pass, so due timeouts still expire
            // in between, and keep the bound at "due now" (not NONE, which would let us sleep past
            // a queued node whose producer saw the bound we just cleared).
            cells.setVolatile(QUEUED_MIN, Long.MIN_VALUE);
        }
        return dropped;
    }

    /** Takes the next queued node, or null; for the final drain. */
    TimeoutNode poll() {
        return queue.poll();
    }

    /**
     * The worker's half of the handshake before it parks: stores its park deadline (volatile),
     * then loads QUEUED_MIN (volatile), pairing with {@link #wakeAfterOffer}.
     *
     * @return when the worker must start taking the queue (see {@link #transferStart}), or
     *     {@link #NONE} when nothing is queued
     */
    long parking(final long elapsedDeadline) {
        cells.setVolatile(PARK_DEADLINE, elapsedDeadline);
        long queuedMin = cells.getVolatile(QUEUED_MIN);
        return queuedMin == NONE ? NONE : transferStart(queuedMin, backlog());
    }

    /** The worker is not parked (any more). */
    void awake() {
        cells.setRelease(PARK_DEADLINE, AWAKE);
    }

    /** Publishes the worker's retired count (release: pairs with {@link #pending()}'s acquire). */
    void retired(final long retired) {
        cells.setRelease(RETIRED, retired);
    }

    /** Sets the cancel count whose cancel wakes the worker (volatile: pairs with {@link #cancelled()}). */
    void purgeAt(final long count) {
        cells.setVolatile(PURGE_AT, count);
    }
}
