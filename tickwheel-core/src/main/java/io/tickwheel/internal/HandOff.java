package io.tickwheel.internal;

import java.util.function.Consumer;

/**
 * The hand-off between the threads that schedule and cancel and the one worker: the queues new
 * nodes wait in, the counters both sides keep, and the handshake that decides when a producer
 * or a canceller must wake the worker. The engine ({@link TimerCore}) calls the producer half,
 * the {@link Worker} the consumer half; neither touches the other's state.
 *
 * <h2>One lane per producer</h2>
 * Producers on different cores that claim indexes of one queue pass its tail's cache line
 * between them on every offer, which costs more than the rest of a schedule together (two
 * producers paid about 100 ns each for it). So there are {@link NodeLanes lanes}, each a queue
 * with its own counters, and a thread always offers into the same one, chosen by its id, so it
 * keeps its own order (two threads' timeouts never had one). With a pending limit there is one
 * lane: the limit's check and claim must be one step on one index (see {@link PendingLimit}).
 * Cancels are counted in the canceller's lane, for the same reason as offers.
 *
 * <h2>Waking the worker</h2>
 * New nodes wait in the queues until the worker needs them: most request timeouts are cancelled
 * long before they are due, and a node cancelled while still queued costs the worker one look
 * instead of a link and an unlink; a far-future node linked now would only be touched again
 * later. So the worker takes the queues when their earliest deadline comes due, or earlier by the
 * time the backlog takes to move ({@link #transferStart}: a long backlog must be moving before
 * the node it holds is due), or, in part, for a purge. To know the earliest deadline, producers keep
 * {@code QUEUED_MIN}: after its offer, a producer lowers it by CAS if its own deadline is
 * earlier, and only then loads {@code PARK_DEADLINE} (volatile), waking the worker if it parks
 * past that node's transfer start. The worker stores its park deadline (volatile), then loads
 * {@code QUEUED_MIN} (volatile) and sleeps no later than its transfer start: whichever side goes
 * second sees the other, so no queued node is slept past, and only a producer with a new
 * earliest deadline can pay for an unpark. The backlog keeps growing while the worker sleeps,
 * and with it the time a transfer takes, so the producer whose offer passes its lane's
 * {@code TRANSFER_AT} wakes it to look again, {@link #TRANSFER_BATCH} offers split among the lanes
 * by {@link WakeMarks}, so the backlog grows by less than twice that between looks. Likewise a
 * canceller whose cancel reaches its lane's {@code PURGE_AT} wakes it for a purge, which bounds
 * the garbage of cancelled nodes, queued or linked (before the first split each lane may add
 * {@link #PURGE_MIN}).
 *
 * <h2>A purge leaves the youngest nodes queued</h2>
 * Under request-timeout churn the queue's old part is all cancelled and its young part holds the
 * live timeouts, which their callers will soon cancel. A node the worker read sits in both cores'
 * caches, so that cancel's CAS must first take the line back: taking the whole queue on every
 * purge cost the callers about as much as the worker's own pass (W2: ~9 ns per operation each).
 * So a purge first takes only the nodes offered before the previous transfer ({@link #transferOld}),
 * and younger ones only while the garbage is still at its bound (see {@code Worker}); it leaves
 * {@code QUEUED_MIN}, at most the earliest deadline left, which at worst wakes the worker early.
 * The old part it takes is mostly tombstones ({@link NodeQueue}): each cancel of a queued node
 * overwrites the node's slot, so the worker reads the slot, not the node's cache line.
 * {@link LaneTransfer} does the moving.
 *
 * <h2>Counting without a shared counter on the schedule path</h2>
 * pending = scheduled - retired - cancelled, where "scheduled" is the sum of the lanes' producer
 * indexes (each offer claims one) and of the {@link OwnLane}'s count (what the worker thread
 * schedules itself skips the lanes), "retired" is counted by the worker alone (expired, or
 * cancelled by stop) and "cancelled" by the threads whose cancel CAS succeeded, per lane.
 * {@link #pending()} loads retired and cancelled before scheduled: a timeout is scheduled before
 * it can retire, and each counter only grows, so the result is never negative, and it is exact
 * whenever no call is in flight.
 *
 * <p>All deadlines here are elapsed nanoseconds since the timer's origin. Threading: the producer
 * half (offer, wakeAfterOffer, cancelled, pending and the other counts) from any thread; the
 * consumer half (from transferDue on) from the worker thread only, which alone touches the
 * fields marked worker-only. Each cell's access mode is documented.
 */
final class HandOff {

    /**
     * The most one transfer takes before the wheel advances again, how many offers a sleeping
     * worker lets pass (over all lanes) before it looks at the backlog again, and the backlog that
     * needs no head start (moving it takes about a millisecond).
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

    /** Cell: timeouts the worker expired or cancelled on stop; worker release, readers acquire. */
    private static final int RETIRED = 0;
    /** Cell: elapsed park deadline, AWAKE while not parked; worker volatile, producers volatile. */
    private static final int PARK_DEADLINE = 1;
    /**
     * Cell: at most the earliest elapsed deadline of the nodes still queued, NONE when the queues
     * were emptied; producers lower it by CAS, the worker resets it (volatile) before it polls.
     */
    private static final int QUEUED_MIN = 2;
    /** First of the lanes' cells: cancels counted by the lane's cancellers; atomic add. */
    private static final int CANCELLED = 3;
    /** QUEUED_MIN when nothing is queued. */
    static final long NONE = Long.MAX_VALUE;
    /** PARK_DEADLINE while the worker is not parked. */
    private static final long AWAKE = Long.MIN_VALUE;

    private final NodeLanes lanes;
    /** What the worker schedules itself; its count is part of "scheduled". */
    private final OwnLane own = new OwnLane();
    /** Null without a limit, so the common path skips it; with one there is one lane. */
    private final PendingLimit limit;
    private final PaddedLongs cells; // the global cells, then per lane CANCELLED + lane
    /** TRANSFER_AT: per lane, the producer index whose offer wakes the worker to look again. */
    private final WakeMarks transferMarks;
    /** PURGE_AT: per lane, the cancel count whose cancel wakes the worker for a purge. */
    private final WakeMarks purgeMarks;
    private final long[] counts; // worker-only: room for one count per lane
    private final LaneTransfer transfer; // worker-only

    /** A hand-off with {@link NodeLanes#defaultCount()} lanes, or one with a pending limit ({@code maxPending} > 0). */
    HandOff(final long maxPending) {
        this(maxPending, NodeLanes.defaultCount());
    }

    /** A hand-off with {@code laneCount} lanes (a power of two; 1 with a limit, {@code maxPending} > 0). */
    HandOff(final long maxPending, final int laneCount) {
        lanes = new NodeLanes(maxPending > 0 ? 1 : laneCount);
        int count = lanes.count();
        cells = new PaddedLongs(CANCELLED + count);
        counts = new long[count];
        transfer = new LaneTransfer(lanes, TRANSFER_BATCH);
        limit = PendingLimit.of(maxPending, cells, RETIRED, CANCELLED, count);
        cells.setRelease(PARK_DEADLINE, AWAKE);
        cells.setRelease(QUEUED_MIN, NONE);
        transferMarks = new WakeMarks(count, TRANSFER_BATCH / count - 1);
        // Until the worker first splits a mark, each lane may cancel PURGE_MIN: one thread's
        // cancels wake it exactly as with one lane, and threads that share them only wake it later.
        purgeMarks = new WakeMarks(count, PURGE_MIN);
    }

    // ---- producers and cancellers (any thread) ----

    /** The lane the worker thread offers into, or null with a limit (whose check needs the one queue). */
    OwnLane ownLane() {
        return limit == null ? own : null;
    }

    /** The calling thread's lane (always 0 with a limit): by its id, so the same every call. */
    int laneOfCaller() {
        return lanes.laneOf(Thread.currentThread());
    }

    /**
     * Queues {@code node} in {@code lane} (from {@link #laneOfCaller()}) if the pending limit, if any,
     * allows: check and claim are one step, so a refusal (or an Error) claims nothing. The node's
     * fields are published by the queue's release store. Returns its index, for {@link #wakeAfterOffer}.
     */
    long offer(final int lane, final TimeoutNode node) {
        return lanes.lane(lane).offer(node, limit);
    }

    /**
     * The producer's half of the handshake, after its offer: whether the worker must be woken
     * because this node is the earliest queued and due before the worker's park ends, or because
     * it made its lane's backlog the worker's look-again mark.
     */
    boolean wakeAfterOffer(final int lane, final long index, final long elapsedDeadline) {
        if (lowerQueuedMin(elapsedDeadline) && transferStart(elapsedDeadline, backlog())
                < cells.getVolatile(PARK_DEADLINE)) {
            return true;
        }
        return transferMarks.reached(lane, index);
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
     * Lowers QUEUED_MIN to {@code elapsedDeadline} if that is earlier, returning whether this node is now
     * the earliest queued. A node no earlier than the bound needs nothing: the queues are taken by then.
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
     * Counts one cancel in {@code lane} (the canceller's, from {@link #laneOfCaller()}), by the thread
     * whose cancel CAS succeeded; returns whether this cancel made a purge worth a wake-up.
     */
    boolean cancelled(final int lane) {
        long count = cells.getAndAdd(CANCELLED + lane, 1) + 1;
        return purgeMarks.reached(lane, count);
    }

    /** Marks a cancelled node's queue slot, if it is still queued: see {@link NodeQueue}. */
    void tombstone(final Object node, final int place) {
        lanes.tombstone(node, place);
    }

    /** Counts a cancel by a producer that lost its race with stop(): no purge to wake for. */
    void cancelledByRace(final int lane) {
        cells.getAndAdd(CANCELLED + lane, 1);
    }

    /** Returns scheduled - retired - cancelled; see the class comment. */
    long pending() {
        long retired = cells.getAcquire(RETIRED);
        long cancelled = cancelledCount();
        return scheduledCount() - retired - cancelled;
    }

    long retiredCount() { // for tests
        return cells.getAcquire(RETIRED);
    }

    /** Offers so far: every timeout ever scheduled (the lanes' producer indexes, the own lane's count). */
    long scheduledCount() {
        return lanes.producedCount() + own.producedCount();
    }

    /** Cancel count so far (the lanes' counts, each volatile); any thread. */
    long cancelledCount() {
        long sum = 0;
        for (int i = 0; i < lanes.count(); i++) {
            sum += cells.getVolatile(CANCELLED + i);
        }
        return sum;
    }

    long rejectedByLimit() {
        return limit == null ? 0 : limit.rejected();
    }

    NodeQueue queue(final int lane) { // for tests that inject faults into it
        return lanes.lane(lane);
    }

    // ---- the worker ----

    /** Whether the worker must take (some of) the queues now. */
    boolean transferDue(final long elapsedNow) {
        return queueDue(elapsedNow) || purgeDue();
    }

    /** Whether the whole queue must be taken now: the transfer start of its earliest node has come. */
    boolean queueDue(final long elapsedNow) {
        return transferStart(cells.getVolatile(QUEUED_MIN), backlog()) <= elapsedNow;
    }

    /** Whether some lane's cancels reached its purge mark. */
    boolean purgeDue() {
        for (int i = 0; i < lanes.count(); i++) {
            if (purgeMarks.passed(i, cells.getVolatile(CANCELLED + i))) {
                return true;
            }
        }
        return false;
    }

    /** Nodes offered and not yet taken; any thread (a snapshot). */
    long backlog() {
        return lanes.backlog();
    }

    /**
     * Sets each lane's offer that wakes a sleeping worker to look at the backlog again, its share
     * of {@link #TRANSFER_BATCH} offers from now (volatile store; see the class comment), then
     * loads the lane's producer index (volatile): if producers got there first, it must not sleep.
     */
    boolean lookAgainLater() {
        for (int i = 0; i < lanes.count(); i++) {
            counts[i] = lanes.lane(i).producedCount();
        }
        transferMarks.split(counts, TRANSFER_BATCH, -1);
        boolean mayPark = true;
        for (int i = 0; i < lanes.count(); i++) {
            mayPark &= lanes.lane(i).producedCount() <= transferMarks.mark(i);
        }
        return mayPark;
    }

    /**
     * Moves up to {@link #TRANSFER_BATCH} queued nodes into {@code wheel}, dropping the cancelled ones and
     * giving {@code due} the ones whose tick the wheel has passed; returns how many were dropped.
     */
    long transferTo(final TimingWheel wheel, final Consumer<TimeoutNode> due) {
        // Volatile, before the polls: a producer that still saw the old bound has offered before
        // this store, so the polls below reach its node (see the class comment).
        cells.setVolatile(QUEUED_MIN, NONE);
        long dropped = transfer.move(wheel, due, false, Long.MAX_VALUE);
        if (transfer.filled()) {
            // Producers outpace us: leave the rest for the next pass, so due timeouts still expire
            // in between, and keep the bound at "due now" (not NONE, which would let us sleep past
            // a queued node whose producer saw the bound we just cleared).
            cells.setVolatile(QUEUED_MIN, Long.MIN_VALUE);
        }
        return dropped;
    }

    /** A purge's first transfer: {@link #transferTo} for the nodes offered before the previous one only. */
    long transferOld(final TimingWheel wheel, final Consumer<TimeoutNode> due) {
        return transfer.move(wheel, due, true, Long.MAX_VALUE);
    }

    /** A purge's further transfer: {@link #transferTo} until {@code drops} cancelled nodes were dropped. */
    long transferUntilDropped(final TimingWheel wheel, final Consumer<TimeoutNode> due, final long drops) {
        return transfer.move(wheel, due, false, drops);
    }

    /** Takes the next queued node of any lane, or null when all are empty; for tests. */
    TimeoutNode poll() {
        return lanes.poll();
    }

    /** Gives {@code sink} every node still queued, the own lane's included; for the final drain. */
    void drainTo(final Consumer<TimeoutNode> sink) {
        transfer.drainTo(sink); // what a move an Error cut short had taken
        TimeoutNode node;
        while ((node = lanes.poll()) != null) {
            sink.accept(node);
        }
        own.drainTo(sink);
    }

    /**
     * The worker's half of the handshake before it parks: stores its park deadline (volatile), then
     * loads QUEUED_MIN (volatile), pairing with {@link #wakeAfterOffer}. Returns when the worker must
     * start taking the queues (see {@link #transferStart}), or {@link #NONE} when nothing is queued.
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

    /** Whether the last transfer took as many nodes as one may: some may be left queued. */
    boolean transferFilled() {
        return transfer.filled();
    }

    /** Makes {@link #purgeDue()} true until the next {@link #purgeAt}, without any cancel to wake the worker. */
    void purgeNextPass() {
        readCancelCounts();
        purgeMarks.setTo(counts);
    }

    /** Sets when cancellers wake the worker for a purge: at {@code mark} cancels, split by {@link WakeMarks}. */
    void purgeAt(final long mark) {
        long now = readCancelCounts();
        purgeMarks.split(counts, Math.max(1, mark - now), 0);
    }

    /** Reads each lane's cancel count (volatile) into {@code counts}; returns their sum. */
    private long readCancelCounts() {
        long sum = 0;
        for (int i = 0; i < lanes.count(); i++) {
            counts[i] = cells.getVolatile(CANCELLED + i);
            sum += counts[i];
        }
        return sum;
    }
}
