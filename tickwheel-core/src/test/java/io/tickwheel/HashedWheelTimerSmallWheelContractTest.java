package io.tickwheel;

/**
 * The {@link Timer} contract on a {@link HashedWheelTimer} of two buckets (1 ms tick): every
 * timeout more than 2 ms out waits through rounds, sharing its bucket with nearer ones.
 */
final class HashedWheelTimerSmallWheelContractTest extends TimerContractTest {

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
