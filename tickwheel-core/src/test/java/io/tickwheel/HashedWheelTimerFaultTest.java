package io.tickwheel;

/** The fault-injection suite on a {@link HashedWheelTimer} with a 1 ms tick and 512 buckets. */
final class HashedWheelTimerFaultTest extends TimerFaultTest {

    @Override
    Timer create(final Options options) {
        return HashedWheelTimerContractTest.hashed(options, 512);
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
