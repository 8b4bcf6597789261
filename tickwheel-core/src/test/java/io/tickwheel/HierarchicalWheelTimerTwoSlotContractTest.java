package io.tickwheel;

/**
 * The {@link Timer} contract on a {@link HierarchicalWheelTimer} of two buckets per level (wheelBits 1,
 * 1 ms tick): every few milliseconds crosses a level boundary, so cascades happen all the time.
 */
final class HierarchicalWheelTimerTwoSlotContractTest extends TimerContractTest {

    @Override
    Timer create(final Options options) {
        return HierarchicalWheelTimerContractTest.hierarchical(options, 1);
    }

    @Override
    void start(final Timer timer) {
        ((HierarchicalWheelTimer) timer).start();
    }

    @Override
    String loggerName() {
        return "io.tickwheel.HierarchicalWheelTimer";
    }
}
