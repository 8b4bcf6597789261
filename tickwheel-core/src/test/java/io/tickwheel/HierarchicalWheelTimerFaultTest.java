package io.tickwheel;

/** The fault-injection suite on a {@link HierarchicalWheelTimer} with a 1 ms tick and 64 buckets per level. */
final class HierarchicalWheelTimerFaultTest extends TimerFaultTest {

    @Override
    Timer create(final Options options) {
        return HierarchicalWheelTimerContractTest.hierarchical(options, 6);
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
