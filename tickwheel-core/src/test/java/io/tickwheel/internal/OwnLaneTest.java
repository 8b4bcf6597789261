package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The worker's own lane on its own: linking in order, due nodes handed on, cancelled ones
 * dropped and counted, nodes offered while a link runs left for the next one, the count readers
 * see, and nothing lost when the link throws part-way.
 */
class OwnLaneTest {

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);

    private static TimeoutNode node(final long deadlineNanos) {
        return new TimeoutNode(null, timeout -> { }, deadlineNanos);
    }

    @Test
    void link_placesFutureNodes_handsOnDueOnes_dropsCancelled() {
        OwnLane lane = new OwnLane();
        HierarchicalWheel wheel = new HierarchicalWheel(0, TICK, 6);
        wheel.advance(5 * TICK, n -> { });
        TimeoutNode future = node(9 * TICK);
        TimeoutNode due = node(3 * TICK);
        TimeoutNode cancelled = node(20 * TICK);
        lane.offer(future);
        lane.offer(due);
        lane.offer(cancelled);
        assertThat(cancelled.cancel()).isTrue();
        assertThat(lane.producedCount()).isEqualTo(3);

        List<TimeoutNode> handedOn = new ArrayList<>();
        assertThat(lane.linkInto(wheel, handedOn::add)).as("cancelled nodes dropped").isEqualTo(1);

        assertThat(handedOn).containsExactly(due);
        assertThat(wheel.size()).isEqualTo(1);
        assertThat(lane.isEmpty()).isTrue();
        assertThat(lane.producedCount()).as("the count is of offers, not of what is left").isEqualTo(3);
        List<TimeoutNode> fired = new ArrayList<>();
        wheel.advance(9 * TICK, fired::add);
        assertThat(fired).containsExactly(future);
        wheel.checkInvariants();
    }

    @Test
    void link_nodesOfferedByDueTasks_waitForTheNextLink() {
        OwnLane lane = new OwnLane();
        HashedWheel wheel = new HashedWheel(0, TICK, 1);
        wheel.advance(TICK, n -> { });
        List<TimeoutNode> handedOn = new ArrayList<>();
        // Each due node re-arms with no delay, as a task that re-schedules itself at once would:
        // the link must end rather than chase them.
        lane.offer(node(0));
        lane.offer(node(0));
        long dropped = lane.linkInto(wheel, n -> {
            handedOn.add(n);
            lane.offer(node(0));
        });
        assertThat(dropped).isZero();
        assertThat(handedOn).hasSize(2);
        assertThat(lane.isEmpty()).as("the two re-arms wait").isFalse();
        assertThat(lane.producedCount()).isEqualTo(4);

        handedOn.clear();
        lane.linkInto(wheel, handedOn::add);
        assertThat(handedOn).hasSize(2);
        assertThat(lane.isEmpty()).isTrue();
    }

    @Test
    void offer_growsPastItsArray_andAfterABurstLetsItGo_keepingOrder() {
        OwnLane lane = new OwnLane();
        HierarchicalWheel wheel = new HierarchicalWheel(0, TICK, 6);
        List<TimeoutNode> offered = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            TimeoutNode node = node((i + 1) * TICK);
            offered.add(node);
            lane.offer(node);
        }
        assertThat(lane.linkInto(wheel, n -> { })).isZero();
        assertThat(wheel.size()).isEqualTo(5_000);
        List<TimeoutNode> fired = new ArrayList<>();
        wheel.advance(5_000 * TICK, fired::add);
        assertThat(fired).containsExactlyElementsOf(offered);
        assertThat(lane.capacity()).as("the burst's array let go once empty").isEqualTo(16);
        // After the burst it works as new.
        lane.offer(node(5_001 * TICK));
        assertThat(lane.linkInto(wheel, n -> { })).isZero();
        assertThat(wheel.size()).isEqualTo(1);
        assertThat(lane.producedCount()).isEqualTo(5_001);
    }

    @Test
    void link_takesAtMostOneBatch_theRestWaitsInOrderForTheNext() {
        OwnLane lane = new OwnLane();
        HierarchicalWheel wheel = new HierarchicalWheel(0, TICK, 6);
        int total = OwnLane.LINK_BATCH + 100;
        List<TimeoutNode> offered = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            TimeoutNode node = node((i + 1) * TICK);
            offered.add(node);
            lane.offer(node);
        }

        lane.linkInto(wheel, n -> { });
        assertThat(wheel.size()).as("one batch linked").isEqualTo(OwnLane.LINK_BATCH);
        assertThat(lane.isEmpty()).as("the rest waits: the worker must not park").isFalse();
        lane.linkInto(wheel, n -> { });
        assertThat(wheel.size()).isEqualTo(total);
        assertThat(lane.isEmpty()).isTrue();

        List<TimeoutNode> fired = new ArrayList<>();
        wheel.advance(total * TICK, fired::add);
        assertThat(fired).containsExactlyElementsOf(offered);
    }

    @Test
    void link_whoseHandOnThrows_leavesEveryNodeNotTakenForTheDrain() {
        OwnLane lane = new OwnLane();
        HierarchicalWheel wheel = new HierarchicalWheel(0, TICK, 6);
        wheel.advance(5 * TICK, n -> { });
        TimeoutNode first = node(TICK);
        TimeoutNode second = node(2 * TICK);
        TimeoutNode third = node(30 * TICK);
        lane.offer(first);
        lane.offer(second);
        lane.offer(third);
        TimeoutNode[] reArmed = new TimeoutNode[1];
        assertThatThrownBy(() -> lane.linkInto(wheel, n -> {
            reArmed[0] = node(40 * TICK);
            lane.offer(reArmed[0]);
            throw new StackOverflowError("a task's own failure escaping the worker");
        })).isInstanceOf(StackOverflowError.class);

        List<TimeoutNode> drained = new ArrayList<>();
        lane.drainTo(drained::add);
        assertThat(drained).as("the one handed on is gone; the rest and the re-arm are there")
                .containsExactly(second, third, reArmed[0]);
        assertThat(lane.isEmpty()).isTrue();
        List<TimeoutNode> again = new ArrayList<>();
        lane.drainTo(again::add);
        assertThat(again).isEmpty();
    }

    @Test
    void handOff_countsTheOwnLaneAsScheduled_andDrainsItWithTheQueues() {
        HandOff handOff = new HandOff(0, 2);
        TimeoutNode queued = node(TICK);
        TimeoutNode own = node(2 * TICK);
        handOff.offer(1, queued);
        handOff.ownLane().offer(own);
        assertThat(handOff.scheduledCount()).isEqualTo(2);
        assertThat(handOff.pending()).isEqualTo(2);

        List<TimeoutNode> drained = new ArrayList<>();
        handOff.drainTo(drained::add);
        assertThat(drained).containsExactly(queued, own);
    }

    @Test
    void handOff_withAPendingLimit_hasNoOwnLane() {
        assertThat(new HandOff(10).ownLane()).as("the limit's check needs every schedule in its queue").isNull();
        assertThat(new HandOff(0).ownLane()).isNotNull();
    }
}
