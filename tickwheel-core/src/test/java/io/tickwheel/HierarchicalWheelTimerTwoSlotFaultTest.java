package io.tickwheel;

/**
 * The fault-injection suite on a {@link HierarchicalWheelTimer} of two buckets per level (1 ms tick),
 * where cascades happen all the time.
 */
final class HierarchicalWheelTimerTwoSlotFaultTest extends TimerFaultTest {

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
