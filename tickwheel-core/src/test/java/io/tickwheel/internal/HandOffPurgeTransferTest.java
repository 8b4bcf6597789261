package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A purge's transfers ({@link HandOff#transferOld}, {@link HandOff#transferUntilDropped}) take only the nodes offered
 * before the previous transfer, or with a count of drops the oldest nodes until that many
 * cancelled ones were dropped, and leaves the queued-deadline bound alone, so a young node that
 * is due soon still makes the queue due.
 */
class HandOffPurgeTransferTest {

    private static final long FAR = TimeUnit.HOURS.toNanos(1);
    private static final long SOON = TimeUnit.MILLISECONDS.toNanos(5);

    private static TimeoutNode node(final long deadline) {
        return new TimeoutNode(null, timeout -> { }, deadline);
    }

    private static TimeoutNode cancelled(final long deadline) {
        TimeoutNode node = node(deadline);
        assertThat(node.tryCancelQuietly()).isTrue();
        return node;
    }

    private static void offer(final HandOff handOff, final int lane, final TimeoutNode node) {
        long index = handOff.offer(lane, node);
        handOff.wakeAfterOffer(lane, index, node.deadlineNanos);
    }

    @Test
    void aPurgeTakesWhatWasOfferedBeforeThePreviousTransfer_andLeavesTheYoungQueued() {
        HandOff handOff = new HandOff(0, 2);
        TimingWheel wheel = new HierarchicalWheel(0, 1_000_000, 6);
        List<TimeoutNode> due = new ArrayList<>();
        offer(handOff, 0, cancelled(FAR));
        offer(handOff, 0, node(FAR));
        offer(handOff, 0, cancelled(FAR));
        offer(handOff, 1, cancelled(FAR));
        offer(handOff, 1, node(FAR));

        assertThat(handOff.transferOld(wheel, due::add)).as("nothing was offered before a transfer").isZero();
        assertThat(handOff.backlog()).isEqualTo(5);
        assertThat(wheel.size()).isZero();

        TimeoutNode young = node(SOON);
        offer(handOff, 0, young);
        offer(handOff, 1, cancelled(FAR));
        assertThat(handOff.transferOld(wheel, due::add)).as("the three old cancelled nodes").isEqualTo(3);
        assertThat(wheel.size()).as("the two old live nodes").isEqualTo(2);
        assertThat(handOff.backlog()).as("the young ones stay queued").isEqualTo(2);
        assertThat(handOff.queueDue(SOON - 1)).isFalse();
        assertThat(handOff.queueDue(SOON)).as("the young node still makes the queue due").isTrue();
        assertThat(handOff.parking(FAR)).as("and the worker does not sleep past it").isEqualTo(SOON);
        handOff.awake();

        assertThat(handOff.transferUntilDropped(wheel, due::add, 1)).as("young ones, oldest first, until one drop")
                .isEqualTo(1);
        assertThat(handOff.backlog()).isZero();
        assertThat(wheel.size()).isEqualTo(3);
        assertThat(due).isEmpty();
        assertThat(handOff.transferTo(wheel, due::add)).isZero();
        assertThat(handOff.parking(FAR)).as("a full transfer resets the bound").isEqualTo(HandOff.NONE);
    }

    @Test
    void aPurgeWithDrops_stopsAtTheWantedCount_oldestFirst() {
        HandOff handOff = new HandOff(0, 1);
        TimingWheel wheel = new HierarchicalWheel(0, 1_000_000, 6);
        List<TimeoutNode> nodes = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            TimeoutNode node = i % 2 == 0 ? cancelled(FAR) : node(FAR);
            nodes.add(node);
            offer(handOff, 0, node);
        }
        // Nodes 0..4 hold three cancelled ones (0, 2, 4): the third drop is node 4.
        assertThat(handOff.transferUntilDropped(wheel, n -> { }, 3)).isEqualTo(3);
        assertThat(wheel.size()).as("the live nodes 1 and 3").isEqualTo(2);
        assertThat(handOff.backlog()).as("nodes 5..9").isEqualTo(5);
        assertThat(handOff.poll()).isSameAs(nodes.get(5));
    }

    @Test
    void aPurgeTakesAnOldNodeAlreadyDue_toTheSink() {
        HandOff handOff = new HandOff(0, 1);
        TimingWheel wheel = new HierarchicalWheel(0, 1_000_000, 6);
        wheel.advance(10_000_000, n -> { });
        TimeoutNode overdue = node(SOON);
        offer(handOff, 0, overdue);
        handOff.transferOld(wheel, n -> { });
        List<TimeoutNode> due = new ArrayList<>();
        handOff.transferOld(wheel, due::add);
        assertThat(due).containsExactly(overdue);
        assertThat(wheel.size()).isZero();
    }

    @Test
    void aPurgeThatTookAWholeBatch_isDueAgainWithoutACancel_untilTheNextMarkIsSet() {
        HandOff handOff = new HandOff(0, 2);
        TimingWheel wheel = new HierarchicalWheel(0, 1_000_000, 6);
        List<TimeoutNode> due = new ArrayList<>();
        int queued = (int) HandOff.TRANSFER_BATCH + 10;
        for (int i = 0; i < queued; i++) {
            offer(handOff, i & 1, cancelled(FAR));
            handOff.cancelled(0);
        }
        assertThat(handOff.purgeDue()).as("lane 0 reached its first mark, PURGE_MIN").isTrue();
        assertThat(handOff.transferUntilDropped(wheel, due::add, Long.MAX_VALUE - 1))
                .as("one move takes a batch").isEqualTo(HandOff.TRANSFER_BATCH);
        assertThat(handOff.transferFilled()).isTrue();
        handOff.purgeAt(handOff.cancelledCount() + 1);
        assertThat(handOff.purgeDue()).as("a mark ahead of every count").isFalse();
        handOff.purgeNextPass();
        assertThat(handOff.purgeDue()).as("due again, with no cancel since").isTrue();
        assertThat(handOff.transferUntilDropped(wheel, due::add, Long.MAX_VALUE - 1)).isEqualTo(10);
        assertThat(handOff.transferFilled()).as("the rest was less than a batch").isFalse();
        handOff.purgeAt(handOff.cancelledCount() + 1);
        assertThat(handOff.purgeDue()).isFalse();
        assertThat(handOff.backlog()).isZero();
        assertThat(due).isEmpty();
    }
}
