package io.tickwheel.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timer;
import io.tickwheel.TimerStats;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The meters of a {@link HashedWheelTimer} or a {@link HierarchicalWheelTimer}, described in
 * {@link TimerMetrics}. Every meter reads the binding's one {@link SnapshotMemo}, so a scrape takes
 * one snapshot, not one per meter. The meter functions are built in static methods and capture only
 * the memo and the value each reads, never {@code this} (which holds the timer): Micrometer holds
 * the timer weakly and hands it to them.
 *
 * <p>Threading: thread-safe (immutable but for the memo, which is thread-safe).
 */
final class WheelMeters implements MeterBinder {

    private static final double[] PERCENTILES = {0.5, 0.99, 0.999};

    private final Timer timer;
    private final Tags tags;
    /** Shared by every meter of every registry this binds to. */
    private final SnapshotMemo<Timer, TimerStats> memo;

    /**
     * Describes the meters of a timer.
     *
     * @param timer a {@link HashedWheelTimer} or a {@link HierarchicalWheelTimer}
     * @param tags  every meter's tags, {@code name} included
     * @throws IllegalArgumentException if {@code timer} is another kind of {@link Timer} (it has no statistics)
     */
    WheelMeters(final Timer timer, final Tags tags) {
        this(timer, tags, new SnapshotMemo<>(WheelMeters::stats));
    }

    /**
     * The seam for tests: the meters read {@code memo}, which may count its snapshots or run on a
     * clock of the test's.
     *
     * @param timer a {@link HashedWheelTimer} or a {@link HierarchicalWheelTimer}
     * @param tags  every meter's tags, {@code name} included
     * @param memo  the snapshots of {@code timer} the meters share
     * @throws IllegalArgumentException if {@code timer} is another kind of {@link Timer} (it has no statistics)
     */
    WheelMeters(final Timer timer, final Tags tags, final SnapshotMemo<Timer, TimerStats> memo) {
        String wheel;
        if (timer instanceof HierarchicalWheelTimer) {
            wheel = "hierarchical";
        } else if (timer instanceof HashedWheelTimer) {
            wheel = "hashed";
        } else {
            throw new IllegalArgumentException("timer: a " + timer.getClass().getName()
                    + " has no stats(); expected a HashedWheelTimer or a HierarchicalWheelTimer");
        }
        this.timer = timer;
        this.tags = tags.and("wheel", wheel);
        this.memo = memo;
    }

    /** The snapshot of either public timer; static, so that no meter function holds a timer. */
    static TimerStats stats(final Timer timer) {
        return timer instanceof HierarchicalWheelTimer hierarchical
                ? hierarchical.stats() : ((HashedWheelTimer) timer).stats();
    }

    /**
     * A meter function reading the memo's snapshot. Static, so that it cannot capture {@code this}
     * (which holds the timer): it captures the memo and {@code value} only.
     */
    private static ToDoubleFunction<Timer> read(final SnapshotMemo<Timer, TimerStats> memo,
            final ToDoubleFunction<TimerStats> value) {
        return t -> value.applyAsDouble(memo.get(t));
    }

    /** {@link #read} for a {@code long}. */
    private static ToLongFunction<Timer> readLong(final SnapshotMemo<Timer, TimerStats> memo,
            final ToLongFunction<TimerStats> value) {
        return t -> value.applyAsLong(memo.get(t));
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        // From the snapshot, not Timer::pendingTimeouts, so that scheduled = expired + cancelled + pending
        // holds within a scrape.
        Gauge.builder("tickwheel.timeouts.pending", timer, read(memo, TimerStats::pending))
                .description("Timeouts scheduled and neither expired nor cancelled")
                .baseUnit("timeouts").tags(tags).register(registry);
        counter(registry, "tickwheel.timeouts", "scheduled", TimerStats::scheduled, "Timeouts scheduled");
        counter(registry, "tickwheel.timeouts", "expired", TimerStats::expired,
                "Timeouts that came due and whose task was handed to run (the task executor may refuse it)");
        counter(registry, "tickwheel.timeouts", "cancelled", TimerStats::cancelled,
                "Timeouts cancelled, or returned by stop()");
        counter(registry, "tickwheel.timeouts", "rejected", TimerStats::rejected,
                "newTimeout calls refused by the pending limit");
        counter(registry, "tickwheel.task.failures", null, TimerStats::taskFailures, "Tasks that threw");
        counter(registry, "tickwheel.task.rejections", null, TimerStats::executorRejections,
                "Expired tasks the task executor refused");
        counter(registry, "tickwheel.task.slow", null, TimerStats::slowTasks,
                "Tasks that ran at least the slow-task threshold");
        counter(registry, "tickwheel.worker.wakeups", null, TimerStats::wakeups, "Times the worker thread woke");
        histogram(registry, "tickwheel.lateness", TimerStats::lateness, "Fire time minus deadline");
        histogram(registry, "tickwheel.task.duration", TimerStats::taskTime, "Time each task ran");
    }

    private void counter(final MeterRegistry registry, final String name, final String state,
            final ToDoubleFunction<TimerStats> value, final String description) {
        Tags meterTags = state == null ? tags : tags.and("state", state);
        FunctionCounter.builder(name, timer, read(memo, value)).description(description).tags(meterTags)
                .register(registry);
    }

    private void histogram(final MeterRegistry registry, final String name,
            final Function<TimerStats, TimerStats.Histogram> histogram, final String description) {
        MonotonicSum total = new MonotonicSum();
        FunctionTimer.builder(name, timer, readLong(memo, s -> histogram.apply(s).count()),
                read(memo, s -> total.advance(histogram.apply(s).sum())), TimeUnit.NANOSECONDS)
                .description(description).tags(tags).register(registry);
        TimeGauge.builder(name + ".max", timer, TimeUnit.NANOSECONDS, read(memo, s -> histogram.apply(s).max()))
                .description(description + ": largest since the timer was created").tags(tags).register(registry);
        for (double phi : PERCENTILES) {
            TimeGauge.builder(name + ".percentile", timer, TimeUnit.NANOSECONDS,
                    read(memo, s -> histogram.apply(s).valueAtPercentile(phi * 100)))
                    .description(description + ": percentile since the timer was created")
                    .tags(tags.and("phi", Double.toString(phi))).register(registry);
        }
    }
}
