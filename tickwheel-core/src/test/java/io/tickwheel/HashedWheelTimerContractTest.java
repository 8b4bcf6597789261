package io.tickwheel;

import io.tickwheel.internal.Clock;
import java.util.concurrent.TimeUnit;

/** The {@link Timer} contract on a {@link HashedWheelTimer} with a 1 ms tick and 512 buckets. */
final class HashedWheelTimerContractTest extends TimerContractTest {

    @Override
    Timer create(final Options options) {
        return hashed(options, 512);
    }

    @Override
    void start(final Timer timer) {
        ((HashedWheelTimer) timer).start();
    }

    @Override
    String loggerName() {
        return "io.tickwheel.HashedWheelTimer";
    }

    /** Through the public builder, or the clock-taking constructor when a test brings its own clock. */
    static HashedWheelTimer hashed(final Options options, final int ticksPerWheel) {
        if (options.clock() != Clock.SYSTEM) {
            return new HashedWheelTimer(options.clock(), options.threadFactory(), 1, TimeUnit.MILLISECONDS,
                    ticksPerWheel, true, options.maxPending(), options.taskExecutor());
        }
        HashedWheelTimer.Builder builder = HashedWheelTimer.builder()
                .threadFactory(options.threadFactory())
                .tickDuration(1, TimeUnit.MILLISECONDS)
                .ticksPerWheel(ticksPerWheel)
                .maxPendingTimeouts(options.maxPending());
        if (options.taskExecutor() != null) {
            builder.taskExecutor(options.taskExecutor());
        }
        return builder.build();
    }
}
