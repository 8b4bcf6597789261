package io.tickwheel;

/**
 * The fault-injection suite on a {@link HashedWheelTimer} of two buckets (1 ms tick), where far
 * timeouts share buckets with near ones.
 */
final class HashedWheelTimerSmallWheelFaultTest extends TimerFaultTest {

    @Override
    Timer create(final Options options) {
        return HashedWheelTimerContractTest.hashed(options, 2);
    }

    @Override
    void start(final Timer timer) {
        ((HashedWheelTimer) timer).start();
    }

    @Override
    String loggerName() {
        return "io.tickwheel.HashedWheelTimer";
    }
}
