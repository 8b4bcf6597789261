package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * When expiring a node throws out of the wheel (the worker then fails), the bucket being walked
 * must still hold every node the walk had not finished, so the worker's final drain finds each
 * pending node exactly once. Covers expiry of a full bucket (past a pre-read block), a hashed
 * bucket that keeps far nodes, and a hierarchical cascade.
 */
class WheelSinkFailureTest {

    private static final long TICK = 1_000;

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (int failAt : new int[] {0, 1, 150, BucketArrays.BLOCK, 298}) {
            cases.add(Arguments.of(WheelConfig.hashed(8, TICK, 0), 5L, failAt));
            cases.add(Arguments.of(WheelConfig.hierarchical(6, TICK, 0), 5L, failAt));
            // Tick 64 is the start of level-1 bucket 1: those nodes are expired by the cascade.
            cases.add(Arguments.of(WheelConfig.hierarchical(6, TICK, 0), 64L, failAt));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, due at tick {1}, sink throws at the due node #{2}")
    @MethodSource("cases")
    void advance_sinkThrowsMidBucket_drainFindsEveryNodeTheWalkDidNotFinish(final WheelConfig config,
            final long dueTick, final int failAt) {
        TimingWheel wheel = config.newWheel();
        List<TimeoutNode> all = new ArrayList<>();
        for (int i = 0; i < 900; i++) {
            // Due nodes, interleaved with nodes 8 and 70 ticks later (same hashed bucket; cascaded ones).
            long tick = i % 3 == 0 ? dueTick : dueTick + (i % 3 == 1 ? 8 : 70);
            TimeoutNode node = new TimeoutNode(null, t -> { }, tick * TICK);
            all.add(node);
            wheel.add(node);
        }
        all.get(3).tryCancelQuietly(); // a cancelled one among them, dropped by the pre-read
        List<TimeoutNode> accepted = new ArrayList<>();
        Consumer<TimeoutNode> failing = node -> {
            accepted.add(node);
            if (accepted.size() == failAt + 1) {
                throw new IllegalStateException("sink failure");
            }
        };

        assertThatThrownBy(() -> wheel.advance(dueTick * TICK + TICK / 2, failing)).hasMessage("sink failure");

        TimeoutNode failed = accepted.get(accepted.size() - 1);
        List<TimeoutNode> drained = new ArrayList<>();
        wheel.drainTo(drained::add);
        Set<TimeoutNode> seen = new HashSet<>(drained);
        assertThat(seen).as("drained once each").hasSize(drained.size());
        assertThat(seen).as("the failed node is put back").contains(failed);
        for (TimeoutNode node : all) {
            boolean done = accepted.contains(node) && node != failed;
            boolean cancelled = node == all.get(3);
            assertThat(seen.contains(node)).as("node due at %d drained", node.deadlineNanos)
                    .isEqualTo(!done && !cancelled);
        }
        assertThat(wheel.size()).isZero();
    }
}
