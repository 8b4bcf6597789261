package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The wheels divide by the tick with a reciprocal multiply; it must agree with division everywhere. */
class TickArithmeticTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 7, 10, 999_999, 1_000_000, 1_000_001, 100_000_000, 1_000_000_000,
        (1L << 32) - 1, 1L << 32, (1L << 62) + 1, Long.MAX_VALUE / 3, Long.MAX_VALUE - 1, Long.MAX_VALUE})
    void ticksIn_anyElapsed_equalsFloorDivision(final long tickNanos) {
        TimingWheel wheel = new HashedWheel(0, tickNanos, 1);
        SplittableRandom random = new SplittableRandom(tickNanos);
        long[] edges = {0, 1, tickNanos - 1, tickNanos, Long.MAX_VALUE, Long.MAX_VALUE - 1,
            Long.MAX_VALUE - Long.MAX_VALUE % tickNanos, Long.MAX_VALUE - Long.MAX_VALUE % tickNanos - 1};
        for (long elapsed : edges) {
            if (elapsed >= 0) {
                assertThat(wheel.ticksIn(elapsed)).as("%d / %d", elapsed, tickNanos).isEqualTo(elapsed / tickNanos);
            }
        }
        for (int i = 0; i < 200_000; i++) {
            // Every magnitude, not only huge values: shift a random long right by a random amount.
            long elapsed = (random.nextLong() >>> 1) >>> random.nextInt(63);
            assertThat(wheel.ticksIn(elapsed)).as("%d / %d", elapsed, tickNanos).isEqualTo(elapsed / tickNanos);
            long nearMultiple = (elapsed / tickNanos) * tickNanos;
            assertThat(wheel.ticksIn(nearMultiple)).isEqualTo(nearMultiple / tickNanos);
            if (nearMultiple > 0) {
                assertThat(wheel.ticksIn(nearMultiple - 1)).isEqualTo((nearMultiple - 1) / tickNanos);
            }
        }
    }
}
