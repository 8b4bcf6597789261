package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Hazards of the tombstones ({@link NodeQueue}'s "Tombstones") and of the place kept in a node's
 * state word ({@link TimeoutNode}):
 * <ul>
 *   <li>a canceller writes the tombstone into a slot the worker is reading: the worker must never
 *       take a live node for a tombstone (a lost timeout), never expire a node whose cancel won,
 *       and never read a tombstone written into a slot it had already consumed;</li>
 *   <li>a canceller that got the node through a data race may read the state word without the
 *       place its producer wrote; its CAS must then retry, not report a pending node as not
 *       cancellable.</li>
 * </ul>
 */
public final class TombstoneRaces {

    private TombstoneRaces() {
    }

    /** 1 when the node's slot holds the tombstone, 2 when the node itself, 3 when nothing. */
    private static int what(final TimeoutNode polled, final TimeoutNode node) {
        if (polled == NodeQueue.TOMBSTONE) {
            return 1;
        }
        return polled == node ? 2 : 3;
    }

    /**
     * What a node's owner does on a cancel, as {@code TimerCore.onCancelled} does it, minus the
     * count: put the tombstone in at the place the cancel's CAS saw.
     */
    private static final class Owner implements TimeoutOwner {
        private final NodeLanes lanes;

        Owner(final NodeLanes lanes) {
            this.lanes = lanes;
        }

        @Override
        public io.tickwheel.Timer timer() {
            return null;
        }

        @Override
        public void onCancelled(final io.tickwheel.Timeout node, final int place) {
            lanes.tombstone(node, place);
        }

        @Override
        public System.Logger logger() {
            return System.getLogger(TombstoneRaces.class.getName());
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }
    }

    /**
     * {@link TimeoutNode#cancel()} (its CAS, then the tombstone at the place the CAS saw) against
     * the worker taking the node in a batch and expiring it, as its transfer and tick would.
     * r1: the cancel won (1) or lost (0); r2: what the worker took (1 tombstone, 2 the node,
     * 3 nothing) times 10, plus 1 if its expire won; r3: what the arbiter's poll then finds
     * (0 nothing, else as r2's tens).
     */
    @Outcome(id = "1, 10, 0", expect = ACCEPTABLE, desc = "the tombstone came first: the worker skipped the node")
    @Outcome(id = "1, 20, 0", expect = ACCEPTABLE, desc = "the worker took the node, then the cancel won")
    @Outcome(id = "0, 21, 0", expect = ACCEPTABLE, desc = "the worker took the node and expired it first")
    @Outcome(expect = FORBIDDEN, desc = "a live node skipped, cancelled and expired both, or a slot read twice")
    public abstract static class CancelVsTake {

        private final NodeLanes lanes = new NodeLanes(4);
        private final TimeoutNode node = new TimeoutNode(new Owner(lanes), t -> { }, 7);
        private final TimeoutNode[] taken = new TimeoutNode[4];

        CancelVsTake(final int consumedBefore) {
            TimeoutNode filler = new TimeoutNode(null, t -> { }, 0);
            NodeQueue lane = lanes.lane(2);
            for (int i = 0; i < consumedBefore; i++) {
                lane.offer(filler);
                lane.poll();
            }
            lane.offer(node);
        }

        final void cancel(final III_Result r) {
            r.r1 = node.cancel() ? 1 : 0;
        }

        final void take(final III_Result r) {
            int count = lanes.lane(2).pollBatch(taken, taken.length);
            TimeoutNode polled = count == 0 ? null : taken[0];
            r.r2 = what(polled, node) * 10 + (polled == node && node.tryExpire() ? 1 : 0);
        }

        final void after(final III_Result r) {
            TimeoutNode polled = lanes.lane(2).poll();
            r.r3 = polled == null ? 0 : what(polled, node);
        }
    }

    /** The node in the first chunk. */
    @JCStressTest
    @State
    public static class CancelVsTakeInChunk extends CancelVsTake {
        /** The node at index 0. */
        public CancelVsTakeInChunk() {
            super(0);
        }

        /**
         * Cancels.
         *
         * @param r the result
         */
        @Actor
        public void canceller(final III_Result r) {
            cancel(r);
        }

        /**
         * Takes a batch, as the worker does.
         *
         * @param r the result
         */
        @Actor
        public void worker(final III_Result r) {
            take(r);
        }

        /**
         * Polls once more.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final III_Result r) {
            after(r);
        }
    }

    /**
     * The node first in the second chunk, while the worker still stands at the end of the first:
     * the worker's batch moves to the second chunk (clearing the first's ring entry) while the
     * canceller looks up the second's entry, which the producer that linked it wrote.
     */
    @JCStressTest
    @State
    public static class CancelVsTakeAcrossChunks extends CancelVsTake {
        /** The node at index 1024, the worker at 1024 still in chunk 0. */
        public CancelVsTakeAcrossChunks() {
            super(1024);
        }

        /**
         * Cancels.
         *
         * @param r the result
         */
        @Actor
        public void canceller(final III_Result r) {
            cancel(r);
        }

        /**
         * Takes a batch, as the worker does.
         *
         * @param r the result
         */
        @Actor
        public void worker(final III_Result r) {
            take(r);
        }

        /**
         * Polls once more.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final III_Result r) {
            after(r);
        }
    }

    /**
     * A producer offers a node and publishes it through a plain field; a canceller that sees it
     * cancels it. r1: the canceller saw the node (1) or not (0); r2: its cancel won (1) or not (0).
     * On x86 the canceller never sees the word without its place (stores stay in order), so there
     * this checks the ordinary path only; NodeQueueTombstoneTest's {@code leavePending} test hands
     * the CAS a word without its place and checks the retry on any hardware.
     */
    @JCStressTest
    @State
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the canceller did not see the node")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "it saw the node and cancelled it")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "a pending node refused its cancel (a stale state word)")
    @Outcome(expect = FORBIDDEN, desc = "anything else")
    public static class CancelThroughARace {

        private final NodeLanes lanes = new NodeLanes(4);
        private TimeoutNode shared; // plain: the data race is the point

        /** Builds, offers, then publishes the node with a plain store. */
        @Actor
        public void producer() {
            TimeoutNode node = new TimeoutNode(null, t -> { }, 1);
            lanes.lane(3).offer(node);
            shared = node;
        }

        /**
         * Cancels the node if it sees it.
         *
         * @param r the result
         */
        @Actor
        public void canceller(final II_Result r) {
            TimeoutNode node = shared;
            if (node != null) {
                r.r1 = 1;
                r.r2 = node.tryCancelQuietly() ? 1 : 0;
            }
        }
    }
}
