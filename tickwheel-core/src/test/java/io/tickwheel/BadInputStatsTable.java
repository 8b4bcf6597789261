package io.tickwheel;

import static io.tickwheel.BadInputChecks.FIRES;
import static io.tickwheel.BadInputRow.accepts;
import static io.tickwheel.BadInputRow.call;
import static io.tickwheel.BadInputRow.rejects;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.internal.StatsRecorder;
import java.time.Duration;
import java.util.List;

/**
 * The rows of {@code docs/BAD-INPUT.md} for the builders' slow-task threshold and {@link TimerStats},
 * in the doc's order (part of
 * {@link BadInputTable#all()}).
 */
final class BadInputStatsTable {

    private static final String SLOW = "slowTaskThreshold(Duration)";
    private static final String PERCENTILE = "TimerStats.Histogram#valueAtPercentile(double)";
    /** The top of 1000's bucket: what p0 of {1000, 5000} reads. */
    private static final long LOWEST = 1_023;
    private static final long HIGHEST = 5_000;

    private BadInputStatsTable() {
    }

    /** A snapshot whose lateness holds 1000 and 5000 ns. */
    static TimerStats sample() {
        StatsRecorder recorder = new StatsRecorder("BadInput", System.getLogger("io.tickwheel.BadInput"), 0, false);
        recorder.expired(1_000);
        recorder.expired(HIGHEST);
        return new TimerStats(recorder.snapshot(() -> 0, () -> 2, 0));
    }

    /** {@link #sample()} with one more timeout expired: what a snapshot taken after it would show. */
    static TimerStats later() {
        StatsRecorder recorder = new StatsRecorder("BadInput", System.getLogger("io.tickwheel.BadInput"), 0, false);
        recorder.expired(1_000);
        recorder.expired(HIGHEST);
        recorder.expired(HIGHEST);
        return new TimerStats(recorder.snapshot(() -> 0, () -> 3, 0));
    }

    static List<BadInputRow> stats() {
        String hashed = BadInputTable.HB + SLOW;
        String hierarchical = BadInputTable.RB + SLOW;
        return List.of(
                rejects("slowTaskThreshold.null", NullPointerException.class, "slowTaskThreshold",
                        call(hashed, f -> f.hashedBuilder.slowTaskThreshold(null)),
                        call(hierarchical, f -> f.hierarchicalBuilder.slowTaskThreshold(null))),
                rejects("slowTaskThreshold.negative", IllegalArgumentException.class, "slowTaskThreshold",
                        call(hashed, f -> f.hashedBuilder.slowTaskThreshold(Duration.ofNanos(-1))),
                        call(hierarchical, f -> f.hierarchicalBuilder.slowTaskThreshold(Duration.ofDays(-1))),
                        call(hierarchical,
                                f -> f.hierarchicalBuilder.slowTaskThreshold(Duration.ofSeconds(Long.MIN_VALUE)))),
                accepts("slowTaskThreshold.zeroOrHuge", FIRES,
                        call(hashed, f -> HashedWheelTimer.builder().threadFactory(f.factory)
                                .slowTaskThreshold(Duration.ZERO).build()),
                        call(hashed, f -> HashedWheelTimer.builder().threadFactory(f.factory)
                                .slowTaskThreshold(Duration.ofSeconds(Long.MAX_VALUE)).build()),
                        call(hierarchical, f -> HierarchicalWheelTimer.builder().threadFactory(f.factory)
                                .slowTaskThreshold(Duration.ZERO).build()),
                        call(hierarchical, f -> HierarchicalWheelTimer.builder().threadFactory(f.factory)
                                .slowTaskThreshold(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)).build())),
                rejects("stats.earlier.null", NullPointerException.class, "earlier",
                        call("TimerStats#minus(TimerStats)", f -> sample().minus(null))),
                rejects("stats.earlier.later", IllegalArgumentException.class, "earlier",
                        call("TimerStats#minus(TimerStats)", f -> sample().minus(later()))),
                accepts("stats.percentile.outOfRange", (f, before, result) -> assertThat((Long) result)
                                .isIn(LOWEST, HIGHEST),
                        call(PERCENTILE, f -> sample().lateness().valueAtPercentile(-1)),
                        call(PERCENTILE, f -> sample().lateness().valueAtPercentile(Double.NEGATIVE_INFINITY)),
                        call(PERCENTILE, f -> sample().lateness().valueAtPercentile(101)),
                        call(PERCENTILE, f -> sample().lateness().valueAtPercentile(Double.POSITIVE_INFINITY)),
                        call(PERCENTILE, f -> sample().lateness().valueAtPercentile(Double.NaN))));
    }
}
