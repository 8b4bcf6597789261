package io.tickwheel.bench.workloads;

import io.tickwheel.TimerStats;
import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TickwheelTimer;

/**
 * Puts a tickwheel timer's own lateness histogram, from its {@code stats()}, beside the lateness
 * the workload measured from outside (the keys {@code statsLateness...}), so the report can show
 * whether the timer's self-report agrees with what its users saw. Other timers get nothing.
 *
 * <p>Threading: called by the workload's thread after the fires are in.
 */
public final class OwnLateness {

    private static final double MS = 1e6;

    private OwnLateness() {
    }

    /**
     * Records the timer's own lateness percentiles, if it has any.
     *
     * @param timer the timer under test
     * @param m where the workload's metrics go
     */
    public static void put(final BenchTimer timer, final Metrics m) {
        if (!(timer instanceof TickwheelTimer tickwheel)) {
            return;
        }
        TimerStats.Histogram lateness = tickwheel.stats().lateness();
        m.put("statsLatenessCount", lateness.count());
        m.put("statsLatenessP50Ms", lateness.valueAtPercentile(50) / MS);
        m.put("statsLatenessP99Ms", lateness.valueAtPercentile(99) / MS);
        m.put("statsLatenessP999Ms", lateness.valueAtPercentile(99.9) / MS);
        m.put("statsLatenessMaxMs", lateness.max() / MS);
    }
}
