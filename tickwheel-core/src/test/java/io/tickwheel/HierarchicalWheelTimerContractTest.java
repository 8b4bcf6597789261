package io.tickwheel;

import io.tickwheel.internal.Clock;
import java.time.Duration;

/** The {@link Timer} contract on a {@link HierarchicalWheelTimer} with a 1 ms tick and 64 buckets per level. */
final class HierarchicalWheelTimerContractTest extends TimerContractTest {

    @Override
    Timer create(final Options options) {
        return hierarchical(options, 6);
    }

    @Override
    void start(final Timer timer) {
        ((HierarchicalWheelTimer) timer).start();
    }

    @Override
    String loggerName() {
        return "io.tickwheel.HierarchicalWheelTimer";
    }

    /** Through the public builder, or the clock-taking build when a test brings its own clock. */
    static HierarchicalWheelTimer hierarchical(final Options options, final int wheelBits) {
        HierarchicalWheelTimer.Builder builder = HierarchicalWheelTimer.builder()
                .threadFactory(options.threadFactory())
                .tickDuration(Duration.ofMillis(1))
                .wheelBits(wheelBits)
                .maxPendingTimeouts(options.maxPending());
        if (options.taskExecutor() != null) {
            builder.taskExecutor(options.taskExecutor());
        }
        return options.clock() == Clock.SYSTEM ? builder.build() : builder.build(options.clock(), true);
    }
}
