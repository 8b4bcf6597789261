package io.tickwheel.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timer;
import io.tickwheel.durable.DurableTimer;
import java.util.Objects;

/**
 * Micrometer meters for one tickwheel timer, read from its {@code stats()} snapshots whenever
 * the registry polls them, so the timer pays nothing extra between scrapes. The meters of one
 * {@code TimerMetrics} share one snapshot: the first meter read takes it and the others reuse it
 * while it is younger than 100 ms, so a scrape copies the timer's statistics once, not once per
 * meter, and its meters agree with each other (a value may therefore be up to 100 ms old).
 *
 * <pre>{@code
 * HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder().build();
 * new TimerMetrics(timer, "request-timeouts", Tags.empty()).bindTo(registry);
 * }</pre>
 *
 * <h2>A {@link HashedWheelTimer} or a {@link HierarchicalWheelTimer}</h2>
 * Every meter is tagged {@code name} (the name given here), {@code wheel}
 * ({@code hashed} or {@code hierarchical}) and the given tags:
 * <table>
 *   <caption>Meters of a wheel timer</caption>
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
 *
 * <h2>A {@link DurableTimer}</h2>
 * Only binding a durable timer loads tickwheel-durable's classes. Every meter is tagged {@code name}, {@code wheel} =
 * {@code durable} and the given tags; counts are this process's, from {@link DurableTimer#stats()}:
 * <table>
 *   <caption>Meters of a durable timer</caption>
 *   <tr><th>meter</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code tickwheel.timeouts.pending}</td><td>gauge</td><td>pending timeouts in the whole store
 *       ({@link DurableTimer#pendingTimeouts()}, which may read the store; NaN when that fails or the
 *       timer is closed)</td></tr>
 *   <tr><td>{@code tickwheel.timeouts}</td><td>function counter, tag {@code state}</td><td>{@code scheduled}
 *       and {@code cancelled} (acknowledged by the store; a cancel that found nothing is not counted),
 *       {@code fired} (the handler returned), {@code retried} (it threw; retry recorded) and
 *       {@code failed} (its last attempt threw; moved to {@code failed()})</td></tr>
 *   <tr><td>{@code tickwheel.claims.refused}</td><td>function counter</td><td>due timeouts the store would
 *       not let this process run (cancelled or replaced meanwhile, or owned by another process)</td></tr>
 *   <tr><td>{@code tickwheel.store.errors}</td><td>function counter</td><td>store calls that failed:
 *       schedule, cancel, and recording an outcome (each attempt)</td></tr>
 *   <tr><td>{@code tickwheel.store.latency}, tag {@code op} = {@code schedule} or {@code cancel}</td>
 *       <td>function timer</td><td>count and total time from each acknowledged call to the store's
 *       acknowledgement</td></tr>
 *   <tr><td>{@code tickwheel.store.latency.max}, {@code tickwheel.store.latency.percentile} (tags
 *       {@code op}, {@code phi} = 0.5, 0.99, 0.999)</td><td>time gauges</td><td>largest value and
 *       percentiles, since the timer was built</td></tr>
 * </table>
 * Meters hold the timer weakly (Micrometer's default), so binding never keeps a timer alive.
 *
 * <p>Threading: thread-safe; the shared snapshot is published safely (see {@code SnapshotMemo}), so
 * several registries and threads may read the meters at once.
 */
public final class TimerMetrics implements MeterBinder {

    /** Loaded only for the kind of timer bound, so the wheel timers' meters never need tickwheel-durable. */
    private final MeterBinder meters;

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
        this.meters = new WheelMeters(timer, tags(name, tags));
    }

    /**
     * Creates the meters' description for a {@link DurableTimer}; nothing is registered until
     * {@link #bindTo}.
     *
     * @param timer the durable timer
     * @param name the value of the {@code name} tag
     * @param tags more tags for every meter
     */
    public TimerMetrics(final DurableTimer timer, final String name, final Iterable<Tag> tags) {
        Objects.requireNonNull(timer, "timer");
        this.meters = new DurableMeters(timer, tags(name, tags));
    }

    private static Tags tags(final String name, final Iterable<Tag> tags) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tags, "tags");
        return Tags.of(tags).and("name", name);
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        meters.bindTo(registry);
    }
}
