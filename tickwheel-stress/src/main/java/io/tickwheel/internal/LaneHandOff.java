package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Hazards of the hand-off's lanes ({@link HandOff}, {@link NodeLanes}): each producer thread
 * offers into its own lane's queue, while the earliest queued deadline and the worker's park
 * deadline stay one pair of cells for all lanes. The tests pick lanes explicitly (1 and 2 of 4),
 * since the lane of a jcstress actor's thread is not up to the test; two actors, as the
 * machines we run on have two cores.
 */
public final class LaneHandOff {

    private LaneHandOff() {
    }

    private static TimeoutNode node(final long deadline) {
        return new TimeoutNode(null, timeout -> { }, deadline);
    }

    /** The offer-vs-transfer tests' producer: offers {@code node}, due at 5, into lane 2; 1 if it wakes the worker. */
    private static int offerDueAt5(final HandOff handOff, final TimeoutNode node) {
        long index = handOff.offer(2, node);
        return handOff.wakeAfterOffer(2, index, 5) ? 1 : 0;
    }

    /** The worker's results there: r1 its transfer took the node, r2 it would wake by a queued node. */
    private static void recordWorker(final III_Result r, final boolean took, final HandOff handOff, final long far) {
        r.r1 = took ? 1 : 0;
        r.r2 = handOff.parking(far) < far ? 1 : 0;
    }

    /**
     * Hazard: the lost wake-up across lanes. Lane 1 holds a node due at 6, which made the shared
     * earliest-queued bound 6. The worker takes the queues (it resets the bound, then polls every
     * lane) and decides to park until 1000, while a producer offers a node due at 5 into lane 2
     * and wakes the worker only if its node lowered the bound and the worker's published park
     * deadline is later. If a transfer polled only some lanes, or the reset came after the polls,
     * the worker could park to 1000 with the node queued and no producer waking it.
     *
     * <p>Result: r1 = the worker's transfer took the producer's node (1/0); r2 = the worker will
     * wake by a queued node's transfer start (1) or sleeps to its own deadline (0); r3 = the
     * producer wakes the worker (1/0).
     */
    @JCStressTest
    @Outcome(id = {"1, 0, 0", "1, 0, 1", "1, 1, 0", "1, 1, 1", "0, 1, 0", "0, 1, 1", "0, 0, 1"},
            expect = ACCEPTABLE, desc = "the worker took the node, saw it queued, or is woken")
    @Outcome(id = "0, 0, 0", expect = FORBIDDEN, desc = "lost wake-up: the worker sleeps past the queued node")
    @State
    public static class OfferVsTransferAndPark {
        private static final long FAR = 1000;
        private final HandOff handOff = new HandOff(0, 4);
        private final TimingWheel wheel = new HashedWheel(0, 1, 8);
        private final TimeoutNode offered = node(5);

        /** Queues a node due at 6 in lane 1. */
        public OfferVsTransferAndPark() {
            long index = handOff.offer(1, node(6));
            handOff.wakeAfterOffer(1, index, 6);
        }

        /**
         * Offers a node due at 5 into lane 2.
         *
         * @param r the result
         */
        @Actor
        public void producer(final III_Result r) {
            r.r3 = offerDueAt5(handOff, offered);
        }

        /**
         * Takes the queues into the wheel, then parks (in decision only) until {@value #FAR}.
         *
         * @param r the result
         */
        @Actor
        public void worker(final III_Result r) {
            boolean[] due = new boolean[1];
            handOff.transferTo(wheel, node -> due[0] |= node == offered);
            recordWorker(r, due[0] || wheel.size() == 2, handOff, FAR);
        }
    }

    /**
     * Hazard: a purge's transfer and a producer's early node. A purge's transfer takes only the
     * nodes offered before the previous transfer and, unlike a full transfer, leaves the
     * earliest-queued bound alone. Lane 1 holds a node due at 6 that is old (a transfer came after
     * it), so the bound is 6. The worker runs a purge's transfer, which takes that node and leaves
     * lane 2 (nothing there is old), and decides to park until 1000, while a producer offers a node
     * due at 5 into lane 2; the producer sees the worker awake and does not wake it. If the purge's
     * transfer reset the bound as a full transfer does, the producer's lowering could land before
     * the reset and the worker would park to 1000 with the node queued: outcome 0, 0, 0. With the
     * bound left alone, r2 is always 1.
     *
     * <p>Result: r1 = the worker's transfer took the producer's node (1/0); r2 = the worker will
     * wake by a queued node's transfer start (1) or sleeps to its own deadline (0); r3 = the
     * producer wakes the worker (1/0).
     */
    @JCStressTest
    @Outcome(id = {"1, 0, 0", "1, 0, 1", "1, 1, 0", "1, 1, 1", "0, 1, 0", "0, 1, 1", "0, 0, 1"},
            expect = ACCEPTABLE, desc = "the worker took the node, saw it queued, or is woken")
    @Outcome(id = "0, 0, 0", expect = FORBIDDEN, desc = "lost wake-up: the worker sleeps past the queued node")
    @State
    public static class OfferVsPurgeTransferAndPark {
        private static final long FAR = 1000;
        private final HandOff handOff = new HandOff(0, 4);
        private final TimingWheel wheel = new HashedWheel(0, 1, 8);
        private final TimeoutNode offered = node(5);

        /** Queues a node due at 6 in lane 1 and makes it old with a purge's transfer. */
        public OfferVsPurgeTransferAndPark() {
            long index = handOff.offer(1, node(6));
            handOff.wakeAfterOffer(1, index, 6);
            handOff.transferOld(wheel, node -> { });
        }

        /**
         * Offers a node due at 5 into lane 2.
         *
         * @param r the result
         */
        @Actor
        public void producer(final III_Result r) {
            r.r3 = offerDueAt5(handOff, offered);
        }

        /**
         * A purge's transfer, then parks (in decision only) until {@value #FAR}.
         *
         * @param r the result
         */
        @Actor
        public void worker(final III_Result r) {
            boolean[] due = new boolean[1];
            handOff.transferOld(wheel, node -> due[0] |= node == offered);
            recordWorker(r, due[0] || wheel.size() == 2, handOff, FAR);
        }
    }

    /**
     * The set-up both purge-mark races share: lane 1 has counted 5 cancels, which the worker has
     * seen (its mark then far away); the canceller counts the sixth; the arbiter reads whether the
     * purge is due by the marks as they ended.
     */
    abstract static class PurgeMarkRace {
        final HandOff handOff = new HandOff(0, 4);

        PurgeMarkRace() {
            for (int i = 0; i < 5; i++) {
                handOff.cancelled(1);
            }
            handOff.purgeAt(1000);
        }

        /** Counts the sixth cancel in lane 1; 1 if it wakes the worker. */
        final int cancelSixth() {
            return handOff.cancelled(1) ? 1 : 0;
        }

        /** 1 if the worker's check (before parking) finds the queue or a purge due. */
        final int due() {
            return handOff.transferDue(0) ? 1 : 0;
        }
    }

    /**
     * Hazard: the lost purge wake-up in one lane. Lane 1 has counted 5 cancels, which the worker
     * has seen. The worker sets the marks for a purge at 6 cancels in all (lane 1's mark becomes
     * 6, or 7 if it already sees the sixth cancel) and, before parking, checks whether any lane's
     * count reached its mark; a canceller counts the sixth cancel in lane 1 and wakes the worker
     * if its count equals the mark it then loads. Each side stores, then loads the other's cell:
     * if either used a weaker order, the worker could park with the purge due and no canceller
     * waking it, and cancelled nodes would pile up for as long as it sleeps.
     *
     * <p>Result: r1 = the worker's pre-park check finds the purge due (1/0); r2 = the canceller
     * wakes the worker (1/0); r3 = the purge is due by the marks the worker set (1: lane 1's mark
     * is 6), read after both.
     */
    @JCStressTest
    @Outcome(id = {"0, 0, 0", "1, 0, 1", "0, 1, 1", "1, 1, 1"}, expect = ACCEPTABLE,
            desc = "the worker re-based the mark past the sixth cancel, saw it, or is woken")
    @Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "lost wake-up: the purge is due and the worker sleeps")
    @Outcome(expect = FORBIDDEN, desc = "a mark or a count off")
    @State
    public static class CancelVsPurgeMark extends PurgeMarkRace {

        /**
         * Counts the sixth cancel in lane 1.
         *
         * @param r the result
         */
        @Actor
        public void canceller(final III_Result r) {
            r.r2 = cancelSixth();
        }

        /**
         * Sets the marks for a purge at 6 cancels, then checks before parking.
         *
         * @param r the result
         */
        @Actor
        public void worker(final III_Result r) {
            handOff.purgeAt(6);
            r.r1 = due();
        }

        /**
         * Reads whether the purge is due by the marks as they ended.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final III_Result r) {
            r.r3 = due();
        }
    }

    /**
     * Hazard: a purge that moved a full batch and is still over the bound asks for the next pass
     * by itself ({@link HandOff#purgeNextPass}): it sets every lane's mark to the count it reads,
     * while a canceller counts one more in lane 1. No cancel need wake the worker then, so its
     * pre-park check must find the purge due whatever the canceller did, and the marks must still
     * say so afterwards; the canceller may or may not wake it (a spare wake-up costs one pass).
     * A mark set past a count the worker read, or a check that missed the count it just read, would
     * let the worker sleep with the rest of the garbage.
     *
     * <p>Result: r1 = the worker's pre-park check finds the purge due (1/0); r2 = the canceller
     * wakes the worker (1/0); r3 = the purge is due by the marks as they ended (1/0).
     */
    @JCStressTest
    @Outcome(id = {"1, 0, 1", "1, 1, 1"}, expect = ACCEPTABLE,
            desc = "the purge stays due for the next pass; the canceller may wake the worker too")
    @Outcome(expect = FORBIDDEN, desc = "the worker would sleep with the purge due, or a mark off")
    @State
    public static class CancelVsPurgeNextPass extends PurgeMarkRace {

        /**
         * Counts the sixth cancel in lane 1.
         *
         * @param r the result
         */
        @Actor
        public void canceller(final III_Result r) {
            r.r2 = cancelSixth();
        }

        /**
         * Asks for the next pass, then checks before parking.
         *
         * @param r the result
         */
        @Actor
        public void worker(final III_Result r) {
            handOff.purgeNextPass();
            r.r1 = due();
        }

        /**
         * Reads whether the purge is due by the marks as they ended.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final III_Result r) {
            r.r3 = due();
        }
    }

    /**
     * Hazard: the worker takes nodes from several lanes while their producers offer. A node taken
     * twice or never, or counts that disagree with what was taken, would break the accounting
     * (each timeout ends exactly once) and {@code pendingTimeouts()}.
     *
     * <p>Result: r1, r2 = how many times node 1, 2 was taken (by the worker's two polls during the
     * offers and the arbiter's polls after); r3 = scheduled count; r4 = backlog at the end.
     */
    @JCStressTest
    @Outcome(id = "1, 1, 2, 0", expect = ACCEPTABLE, desc = "each node taken once, counts exact")
    @Outcome(expect = FORBIDDEN, desc = "a node lost or taken twice, or a count off")
    @State
    public static class OffersVsPoll {
        private final HandOff handOff = new HandOff(0, 4);
        private final TimeoutNode first = node(1);
        private final TimeoutNode second = node(2);
        private int takenFirst;
        private int takenSecond;

        /** Offers node 1 into lane 1, then node 2 into lane 2. */
        @Actor
        public void producer() {
            handOff.offer(1, first);
            handOff.offer(2, second);
        }

        /** Polls twice, as the worker's transfer does. */
        @Actor
        public void worker() {
            take(handOff.poll());
            take(handOff.poll());
        }

        private void take(final TimeoutNode node) {
            if (node == first) {
                takenFirst++;
            } else if (node == second) {
                takenSecond++;
            }
        }

        /**
         * Polls what is left, then reads the counts.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIII_Result r) {
            for (int i = 0; i < 3; i++) {
                take(handOff.poll());
            }
            r.r1 = takenFirst;
            r.r2 = takenSecond;
            r.r3 = (int) handOff.scheduledCount();
            r.r4 = (int) handOff.backlog();
        }
    }
}
