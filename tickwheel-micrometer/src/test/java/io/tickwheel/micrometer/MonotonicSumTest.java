package io.tickwheel.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The lateness and task-time totals never go down, across the core sum's wrap past Long.MAX_VALUE. */
class MonotonicSumTest {

    @Test
    void followsTheSum_whileItDoesNotWrap() {
        MonotonicSum total = new MonotonicSum();
        assertThat(total.advance(0)).isZero();
        assertThat(total.advance(1_500)).isEqualTo(1_500.0);
        assertThat(total.advance(1_500)).as("no growth, no change").isEqualTo(1_500.0);
        assertThat(total.advance(4_000)).isEqualTo(4_000.0);
    }

    @Test
    void keepsGrowing_acrossTheWrap() {
        MonotonicSum total = new MonotonicSum();
        long nearTheTop = Long.MAX_VALUE - 1_000;
        double before = total.advance(nearTheTop);
        long wrapped = nearTheTop + 3_000; // what the core's long holds after 3,000 more ns: negative
        assertThat(wrapped).isNegative();
        double after = total.advance(wrapped);
        assertThat(after).as("the total goes on, 3,000 ns higher").isEqualTo(before + 3_000);
        assertThat(after).isGreaterThan((double) Long.MAX_VALUE);
    }

    @Test
    void anOlderSnapshotReadLate_movesNothing() {
        MonotonicSum total = new MonotonicSum();
        total.advance(10_000);
        assertThat(total.advance(9_000)).as("an older snapshot").isEqualTo(10_000.0);
        assertThat(total.advance(12_000)).isEqualTo(12_000.0);
    }

    @Test
    void boundAfterTheSumHasWrapped_startsFromTheWholeSum_andGrows() {
        MonotonicSum total = new MonotonicSum();
        double first = total.advance(Long.MIN_VALUE + 10);
        assertThat(first).as("2^63 + 10 ns so far").isEqualTo(0x1p63 + 10);
        assertThat(total.advance(Long.MIN_VALUE + 1_000_000)).isGreaterThan(first);
    }
}
