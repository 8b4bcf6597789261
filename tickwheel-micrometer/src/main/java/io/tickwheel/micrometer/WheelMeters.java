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

/**
 * The meters of a {@link HashedWheelTimer} or a {@link HierarchicalWheelTimer}, described in
 * {@link TimerMetrics}.
 *
 * <p>Threading: thread-safe (immutable; every read takes a fresh snapshot).
 */
final class WheelMeters implements MeterBinder {

    private static final double[] PERCENTILES = {0.5, 0.99, 0.999};

    private final Timer timer;
    private final Tags tags;

    /**
     * Describes the meters of a timer.
     *
     * @param timer a {@link HashedWheelTimer} or a {@link HierarchicalWheelTimer}
     * @param tags  every meter's tags, {@code name} included
     * @throws IllegalArgumentException if {@code timer} is another kind of {@link Timer} (it has no statistics)
     */
    WheelMeters(final Timer timer, final Tags tags) {
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
    }

    /** The snapshot of either public timer; static, so that no meter function holds a timer. */
    static TimerStats stats(final Timer timer) {
        return timer instanceof HierarchicalWheelTimer hierarchical
                ? hierarchical.stats() : ((HashedWheelTimer) timer).stats();
    }

    private static ToDoubleFunction<Timer> read(final Function<TimerStats, Long> value) {
        return t -> value.apply(stats(t));
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        Gauge.builder("tickwheel.timeouts.pending", timer, Timer::pendingTimeouts)
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
            final Function<TimerStats, Long> value, final String description) {
        Tags meterTags = state == null ? tags : tags.and("state", state);
        FunctionCounter.builder(name, timer, read(value)).description(description).tags(meterTags)
                .register(registry);
    }

    private void histogram(final MeterRegistry registry, final String name,
            final Function<TimerStats, TimerStats.Histogram> histogram, final String description) {
        FunctionTimer.builder(name, timer, t -> histogram.apply(stats(t)).count(),
                t -> histogram.apply(stats(t)).sum(), TimeUnit.NANOSECONDS)
                .description(description).tags(tags).register(registry);
        TimeGauge.builder(name + ".max", timer, TimeUnit.NANOSECONDS, t -> histogram.apply(stats(t)).max())
                .description(description + ": largest since the timer was created").tags(tags).register(registry);
        for (double phi : PERCENTILES) {
            TimeGauge.builder(name + ".percentile", timer, TimeUnit.NANOSECONDS,
                    t -> histogram.apply(stats(t)).valueAtPercentile(phi * 100))
                    .description(description + ": percentile since the timer was created")
                    .tags(tags.and("phi", Double.toString(phi))).register(registry);
        }
    }
}
