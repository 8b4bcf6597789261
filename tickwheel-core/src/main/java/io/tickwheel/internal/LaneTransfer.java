package io.tickwheel.internal;

import java.util.function.Consumer;

/**
 * The worker's side of {@link HandOff}'s transfers: moving queued nodes from the lanes into the
 * wheel, which lane goes first, how far a purge's "old" part reaches, and the nodes one read of a
 * lane has taken ahead.
 *
 * <h2>Reading ahead</h2>
 * Under request-timeout churn most queued nodes are cancelled by the time a purge takes them,
 * and each is a cache miss (it was allocated, and cancelled, on a caller's core long ago). Taking
 * a lane's slots a batch at a time ({@link NodeQueue#pollBatch}) and only then loading the nodes
 * lets those misses overlap instead of queueing behind each slot's bookkeeping (ses-churn 10k:
 * about 8 of the executor adapter's ~166 process CPU ns per operation, docs/BENCHMARKS.md).
 * Tombstones ({@link NodeQueue}) spare most of those loads altogether.
 *
 * <p>Threading: worker thread only. Its fields are written per move, never per node, and it is its
 * own object so that none of them shares a cache line with the counters callers touch.
 */
final class LaneTransfer {

    /** Nodes one read of a lane takes ahead. */
    private static final int READ_AHEAD = 64;

    private final NodeLanes lanes;
    /** The most one move takes. */
    private final long most;
    /** Each lane's producer index after the last move not limited by drops: where "old" ends. */
    private final long[] frontier;
    /**
     * The nodes of the read in progress; each is cleared once handled, so an Error in the middle
     * of a batch leaves here every node taken and not yet handled, and the one being handled. That
     * one may also be in the wheel (which remembers a node whose add threw) or handed on: the final
     * drain may then see it twice, and ends it once (its cancel CAS).
     */
    private final TimeoutNode[] taken = new TimeoutNode[READ_AHEAD];
    /** The lane a move starts with, turning so that no lane waits behind another. */
    private int firstLane;
    /** Whether the last move took {@code most}. */
    private boolean filled;

    /**
     * Creates the worker's side of {@code lanes}.
     *
     * @param lanes the hand-off's lanes
     * @param most the most one move takes
     */
    LaneTransfer(final NodeLanes lanes, final long most) {
        this.lanes = lanes;
        this.most = most;
        this.frontier = new long[lanes.count()];
    }

    /**
     * Moves at most {@code most} nodes, lane by lane, each lane's oldest first, until {@code drops}
     * cancelled ones were dropped, into {@code wheel}, giving {@code due} the ones whose tick the
     * wheel has passed; with {@code oldOnly}, only those before each lane's frontier, which a move
     * with no limit on drops sets to the lane's end.
     *
     * @return how many cancelled nodes were dropped
     */
    long move(final TimingWheel wheel, final Consumer<TimeoutNode> due, final boolean oldOnly, final long drops) {
        long moved = 0;
        long dropped = 0;
        for (int i = 0; i < lanes.count() && moved < most; i++) {
            int at = (firstLane + i) & (lanes.count() - 1);
            NodeQueue lane = lanes.lane(at);
            long limit = moved + Math.min(most - moved,
                    oldOnly ? frontier[at] - lane.consumedCount() : Long.MAX_VALUE);
            int count;
            // No more ahead than the drops still wanted: each node is at most one drop.
            while (moved < limit && dropped < drops && (count = lane.pollBatch(taken,
                    (int) Math.min(READ_AHEAD, Math.min(limit - moved, drops - dropped)))) > 0) {
                moved += count;
                for (int k = 0; k < count; k++) {
                    TimeoutNode node = taken[k];
                    if (node.isCancelled()) { // a tombstone too: see NodeQueue
                        dropped++;
                    } else if (!wheel.addUnlessDue(node)) {
                        due.accept(node);
                    }
                    taken[k] = null; // only once handled: see the field
                }
            }
        }
        for (int i = 0; i < lanes.count() && drops == Long.MAX_VALUE; i++) {
            frontier[i] = lanes.lane(i).producedCount();
        }
        firstLane++;
        filled = moved == most;
        return dropped;
    }

    /**
     * Whether the last move took as many as a move may.
     *
     * @return true if it did
     */
    boolean filled() {
        return filled;
    }

    /**
     * Gives {@code sink} the nodes a move an Error cut short had taken and not handled; for the
     * final drain.
     *
     * @param sink receives each such node
     */
    void drainTo(final Consumer<TimeoutNode> sink) {
        for (int k = 0; k < taken.length; k++) {
            TimeoutNode node = taken[k];
            if (node != null) {
                taken[k] = null;
                sink.accept(node);
            }
        }
    }
}
