package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A node whose add throws (an OutOfMemoryError growing its bucket leaves it unlinked) is still
 * given back by the wheel's drain, which the failing worker's final drain relies on: before, a
 * node the transfer had taken off the queue was then neither queued nor linked, and stop() did
 * not return it.
 */
class WheelAddFailureTest {

    private static final long FAR = TimeUnit.HOURS.toNanos(1);

    /** Holds its nodes in a list; throws an OutOfMemoryError on one chosen place. */
    private static final class FailingWheel extends IdleWheel {
        private final List<TimeoutNode> held = new ArrayList<>();
        private final int failAt;
        private int places;

        FailingWheel(final int failAt) {
            super(0, 1_000_000);
            this.failAt = failAt;
        }

        @Override
        void place(final TimeoutNode node, final long tick) {
            if (places++ == failAt) {
                throw new OutOfMemoryError("growing a bucket");
            }
            held.add(node);
        }

        @Override
        public void advance(final long nowNanos, final Consumer<TimeoutNode> sink) {
            // nothing is due in these tests
        }

        @Override
        void drainBuckets(final Consumer<TimeoutNode> sink) {
            held.forEach(sink);
            held.clear();
        }
    }

    private static TimeoutNode node() {
        return new TimeoutNode(null, timeout -> { }, FAR);
    }

    @Test
    void aTransferWhoseAddThrows_leavesEveryNodeQueuedOrDrained() {
        HandOff handOff = new HandOff(0, 1);
        FailingWheel wheel = new FailingWheel(2);
        List<TimeoutNode> offered = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            TimeoutNode node = node();
            offered.add(node);
            handOff.offer(0, node);
        }
        assertThatThrownBy(() -> handOff.transferTo(wheel, n -> { })).isInstanceOf(OutOfMemoryError.class);
        assertThat(wheel.size()).as("two linked; the failed add is not counted").isEqualTo(2);

        // The worker's final drain (Worker.drainAll): the queues, the nodes the transfer had taken
        // ahead, and the wheel. The node whose add threw is both remembered by the wheel and still
        // held by the transfer, so the drain sees it twice; its cancel CAS ends it once.
        List<TimeoutNode> found = new ArrayList<>();
        Consumer<TimeoutNode> collect = node -> {
            if (node.tryCancelQuietly()) {
                found.add(node);
            }
        };
        handOff.drainTo(collect);
        wheel.drainTo(collect);
        assertThat(found).containsExactlyInAnyOrderElementsOf(offered);
    }

    /** The same for what the worker's tasks scheduled: the hand-off's drain still holds the rest. */
    @Test
    void aLinkOfTheOwnLaneWhoseAddThrows_leavesEveryNodeInTheLaneOrDrained() {
        HandOff handOff = new HandOff(0, 1);
        FailingWheel wheel = new FailingWheel(2);
        List<TimeoutNode> offered = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            TimeoutNode node = node();
            offered.add(node);
            handOff.ownLane().offer(node);
        }
        assertThatThrownBy(() -> handOff.ownLane().linkInto(wheel, n -> { })).isInstanceOf(OutOfMemoryError.class);
        assertThat(wheel.size()).as("two linked; the failed add is not counted").isEqualTo(2);

        List<TimeoutNode> found = new ArrayList<>();
        handOff.drainTo(found::add);
        wheel.drainTo(found::add);
        assertThat(found).containsExactlyInAnyOrderElementsOf(offered);
    }

    @Test
    void theNodeWhoseAddThrew_isDrainedOnce_andNotIfCancelled() {
        FailingWheel wheel = new FailingWheel(0);
        TimeoutNode first = node();
        assertThatThrownBy(() -> wheel.add(first)).isInstanceOf(OutOfMemoryError.class);
        List<TimeoutNode> drained = new ArrayList<>();
        wheel.drainTo(drained::add);
        wheel.drainTo(drained::add);
        assertThat(drained).containsExactly(first);

        FailingWheel again = new FailingWheel(0);
        TimeoutNode cancelled = node();
        assertThatThrownBy(() -> again.addUnlessDue(cancelled)).isInstanceOf(OutOfMemoryError.class);
        assertThat(cancelled.tryCancelQuietly()).isTrue();
        List<TimeoutNode> none = new ArrayList<>();
        again.drainTo(none::add);
        assertThat(none).isEmpty();
    }
}
