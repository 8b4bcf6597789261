package io.tickwheel.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tickwheel.durable.DurableTimer;
import io.tickwheel.durable.DurableTimerStats;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The meters of a {@link DurableTimer}, described in {@link TimerMetrics}. A class of its own so
 * that only binding a durable timer loads it, and with it tickwheel-durable. Every meter but the
 * pending gauge (which reads the store, once per scrape) reads the binding's one {@link SnapshotMemo},
 * so a scrape takes one snapshot, not one per meter. The meter functions are built in static methods
 * and capture only the memo and the value each reads, never {@code this} (which holds the timer):
 * Micrometer holds the timer weakly and hands it to them.
 *
 * <p>Threading: thread-safe (immutable but for the memo, which is thread-safe).
 */
final class DurableMeters implements MeterBinder {

    private static final double[] PERCENTILES = {0.5, 0.99, 0.999};

    private final DurableTimer timer;
    private final Tags tags;
    /** Shared by every meter of every registry this binds to. */
    private final SnapshotMemo<DurableTimer, DurableTimerStats> memo;

    DurableMeters(final DurableTimer timer, final Tags tags) {
        this(timer, tags, new SnapshotMemo<>(DurableTimer::stats));
    }

    /**
     * The seam for tests: the meters read {@code memo}, which may count its snapshots or run on a
     * clock of the test's.
     *
     * @param timer the durable timer
     * @param tags  every meter's tags, {@code name} included
     * @param memo  the snapshots of {@code timer} the meters share
     */
    DurableMeters(final DurableTimer timer, final Tags tags, final SnapshotMemo<DurableTimer, DurableTimerStats> memo) {
        this.timer = timer;
        this.tags = tags.and("wheel", "durable");
        this.memo = memo;
    }

    /**
     * Reads the store's pending count. A scrape must not fail because the store does (or because the
     * timer was closed): NaN is Micrometer's "no value". Static, so that no meter function holds a timer.
     */
    static double pending(final DurableTimer timer) {
        try {
            return timer.pendingTimeouts();
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * A meter function reading the memo's snapshot. Static, so that it cannot capture {@code this}
     * (which holds the timer): it captures the memo and {@code value} only.
     */
    private static ToDoubleFunction<DurableTimer> read(final SnapshotMemo<DurableTimer, DurableTimerStats> memo,
            final ToDoubleFunction<DurableTimerStats> value) {
        return t -> value.applyAsDouble(memo.get(t));
    }

    /** {@link #read} for a {@code long}. */
    private static ToLongFunction<DurableTimer> readLong(final SnapshotMemo<DurableTimer, DurableTimerStats> memo,
            final ToLongFunction<DurableTimerStats> value) {
        return t -> value.applyAsLong(memo.get(t));
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        Gauge.builder("tickwheel.timeouts.pending", timer, DurableMeters::pending)
                .description("Pending durable timeouts in the whole store")
                .baseUnit("timeouts").tags(tags).register(registry);
        counter(registry, "tickwheel.timeouts", "scheduled", DurableTimerStats::scheduled,
                "Schedules the store acknowledged");
        counter(registry, "tickwheel.timeouts", "cancelled", DurableTimerStats::cancelled,
                "Cancels the store acknowledged that found the timeout pending");
        counter(registry, "tickwheel.timeouts", "fired", DurableTimerStats::fired, "Handler runs that returned");
        counter(registry, "tickwheel.timeouts", "retried", DurableTimerStats::retried,
                "Handler runs that threw, with a retry recorded");
        counter(registry, "tickwheel.timeouts", "failed", DurableTimerStats::failed,
                "Timeouts moved to failed() after their last attempt");
        counter(registry, "tickwheel.claims.refused", null, DurableTimerStats::claimRefused,
                "Due timeouts the store would not let this process run");
        counter(registry, "tickwheel.store.errors", null, DurableTimerStats::storeErrors,
                "Store calls that failed (schedule, cancel, recording an outcome)");
        latency(registry, "schedule", DurableTimerStats::scheduleLatency);
        latency(registry, "cancel", DurableTimerStats::cancelLatency);
    }

    private void counter(final MeterRegistry registry, final String name, final String state,
            final ToDoubleFunction<DurableTimerStats> value, final String description) {
        Tags meterTags = state == null ? tags : tags.and("state", state);
        FunctionCounter.builder(name, timer, read(memo, value)).description(description)
                .tags(meterTags).register(registry);
    }

    private void latency(final MeterRegistry registry, final String op,
            final Function<DurableTimerStats, DurableTimerStats.Histogram> histogram) {
        String name = "tickwheel.store.latency";
        String description = "Time the store took to acknowledge a " + op;
        Tags opTags = tags.and("op", op);
        FunctionTimer.builder(name, timer, readLong(memo, s -> histogram.apply(s).count()),
                read(memo, s -> histogram.apply(s).sum()), TimeUnit.NANOSECONDS)
                .description(description).tags(opTags).register(registry);
        TimeGauge.builder(name + ".max", timer, TimeUnit.NANOSECONDS, read(memo, s -> histogram.apply(s).max()))
                .description(description + ": largest since the timer was built").tags(opTags).register(registry);
        for (double phi : PERCENTILES) {
            TimeGauge.builder(name + ".percentile", timer, TimeUnit.NANOSECONDS,
                    read(memo, s -> histogram.apply(s).valueAtPercentile(phi * 100)))
                    .description(description + ": percentile since the timer was built")
                    .tags(opTags.and("phi", Double.toString(phi))).register(registry);
        }
    }
}
