package io.tickwheel.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timer;
import io.tickwheel.TimerStats;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters for one tickwheel timer, read from its {@code stats()} snapshots whenever
 * the registry polls them, so the timer pays nothing extra between scrapes.
 *
 * <pre>{@code
 * HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder().build();
 * new TimerMetrics(timer, "request-timeouts", Tags.empty()).bindTo(registry);
 * }</pre>
 *
 * <p>Every meter is tagged {@code name} (the name given here), {@code wheel}
 * ({@code hashed} or {@code hierarchical}) and the given tags:
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>meter</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code tickwheel.timeouts.pending}</td><td>gauge</td><td>scheduled, neither expired nor
 *       cancelled</td></tr>
 *   <tr><td>{@code tickwheel.timeouts}</td><td>function counter, tag {@code state}</td><td>{@code scheduled},
 *       {@code expired}, {@code cancelled} (including those returned by {@code stop()}) and
 *       {@code rejected} (refused by the pending limit)</td></tr>
 *   <tr><td>{@code tickwheel.task.failures}</td><td>function counter</td><td>tasks that threw</td></tr>
 *   <tr><td>{@code tickwheel.task.rejections}</td><td>function counter</td><td>expired tasks the task
 *       executor refused</td></tr>
 *   <tr><td>{@code tickwheel.task.slow}</td><td>function counter</td><td>tasks that ran at least the
 *       slow-task threshold</td></tr>
 *   <tr><td>{@code tickwheel.worker.wakeups}</td><td>function counter</td><td>times the worker thread
 *       woke</td></tr>
 *   <tr><td>{@code tickwheel.lateness}, {@code tickwheel.task.duration}</td><td>function timer</td>
 *       <td>count and total time of fires (fire time minus deadline) and of task runs</td></tr>
 *   <tr><td>{@code ….max}, {@code ….percentile} (tag {@code phi} = 0.5, 0.99, 0.999)</td>
 *       <td>time gauges</td><td>largest value and percentiles of each, since the timer was
 *       created</td></tr>
 * </table>
 * Meters hold the timer weakly (Micrometer's default), so binding never keeps a timer alive.
 *
 * <p>Threading: thread-safe (immutable; every read takes a fresh snapshot).
 */
public final class TimerMetrics implements MeterBinder {

    private static final double[] PERCENTILES = {0.5, 0.99, 0.999};

    private final Timer timer;
    private final Tags tags;

    /**
     * Creates the meters' description for a {@link HashedWheelTimer} or a
     * {@link HierarchicalWheelTimer}; nothing is registered until {@link #bindTo}.
     *
     * @param timer the timer
     * @param name the value of the {@code name} tag
     * @param tags more tags for every meter
     * @throws IllegalArgumentException if {@code timer} is another kind of {@link Timer} (it has no statistics)
     */
    public TimerMetrics(final Timer timer, final String name, final Iterable<Tag> tags) {
        Objects.requireNonNull(timer, "timer");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tags, "tags");
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
        this.tags = Tags.of(tags).and("name", name, "wheel", wheel);
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
        counter(registry, "tickwheel.timeouts", "expired", TimerStats::expired, "Timeouts whose task was run");
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
