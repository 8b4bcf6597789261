package io.tickwheel.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A known workload on each public timer, then every meter read back from a SimpleMeterRegistry. */
class TimerMetricsTest {

    private static final int FIRED = 25;
    private static final int THROWING = 5;
    private static final int CANCELLED = 30;
    private static final int LEFT_FOR_STOP = 20;
    /** Reached by the far-future timeouts alone, before the cancels free room for the fired ones. */
    private static final int LIMIT = CANCELLED + LEFT_FOR_STOP;
    private static final int REFUSED = 3;

    private static Timer timer(final String wheel, final AtomicReference<Thread> worker) {
        ThreadFactory threads = runnable -> {
            Thread thread = new Thread(runnable, "metrics-test-worker");
            worker.set(thread);
            return thread;
        };
        Duration slow = Duration.ofMillis(30);
        return wheel.equals("hashed")
                ? HashedWheelTimer.builder().tickDuration(Duration.ofMillis(1)).maxPendingTimeouts(LIMIT)
                        .slowTaskThreshold(slow).threadFactory(threads).build()
                : HierarchicalWheelTimer.builder().maxPendingTimeouts(LIMIT).slowTaskThreshold(slow)
                        .threadFactory(threads).build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashed", "hierarchical"})
    void everyMeter_afterAKnownWorkload_readsWhatHappened(final String wheel) throws InterruptedException {
        AtomicReference<Thread> worker = new AtomicReference<>();
        Timer timer = timer(wheel, worker);
        MeterRegistry registry = new SimpleMeterRegistry();
        new TimerMetrics(timer, "orders", Tags.of("app", "shop")).bindTo(registry);
        AtomicInteger ran = new AtomicInteger();
        List<Timeout> toCancel = new ArrayList<>();
        for (int i = 0; i < CANCELLED; i++) {
            toCancel.add(timer.newTimeout(t -> { }, 1, TimeUnit.HOURS));
        }
        for (int i = 0; i < LEFT_FOR_STOP; i++) {
            timer.newTimeout(t -> { }, 2, TimeUnit.HOURS);
        }
        for (int i = 0; i < REFUSED; i++) {
            assertThatThrownBy(() -> timer.newTimeout(t -> { }, 1, TimeUnit.HOURS))
                    .isInstanceOf(RejectedExecutionException.class);
        }
        toCancel.forEach(Timeout::cancel);
        for (int i = 0; i < FIRED; i++) {
            int n = i;
            timer.newTimeout(t -> {
                ran.incrementAndGet();
                if (n == 0) {
                    Thread.sleep(60); // the one slow task
                }
                if (n < THROWING) {
                    throw new IllegalStateException("task " + n + " fails on purpose");
                }
            }, 5 + i % 10, TimeUnit.MILLISECONDS);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> ran.get() == FIRED
                && registry.get("tickwheel.task.duration").functionTimer().count() == FIRED);
        // The meters share one snapshot per 100 ms: read one taken after the workload, not the await's.
        SharedSnapshotTest.outlastTheSharedSnapshot();

        assertThat(gauge(registry, "tickwheel.timeouts.pending")).isEqualTo(LEFT_FOR_STOP);
        assertThat(state(registry, "scheduled")).isEqualTo(CANCELLED + LEFT_FOR_STOP + FIRED);
        assertThat(state(registry, "expired")).isEqualTo(FIRED);
        assertThat(state(registry, "cancelled")).isEqualTo(CANCELLED);
        assertThat(state(registry, "rejected")).isEqualTo(REFUSED);
        assertThat(counter(registry, "tickwheel.task.failures")).isEqualTo(THROWING);
        // The 60 ms task; on a loaded machine a trivial task may also be descheduled past 30 ms.
        assertThat(counter(registry, "tickwheel.task.slow")).isGreaterThanOrEqualTo(1)
                .isEqualTo((double) stats(timer).slowTasks());
        assertThat(counter(registry, "tickwheel.task.rejections")).isZero();

        // Read after the workload: nothing else comes due before assertWakesUp, so the histograms
        // the meters read are the ones in this snapshot.
        TimerStats after = stats(timer);
        assertThat(after.lateness().count()).isEqualTo(FIRED);
        assertThat(after.taskTime().max()).as("the 60 ms task").isGreaterThanOrEqualTo(60_000_000L);
        // Spread, so that a percentile read at the wrong scale (0.999 for 99.9) reads another value.
        assertThat(after.taskTime().valueAtPercentile(0.999)).isLessThan(after.taskTime().valueAtPercentile(99.9));
        assertHistogramMeters(registry, "tickwheel.lateness", after.lateness());
        assertHistogramMeters(registry, "tickwheel.task.duration", after.taskTime());

        assertWakesUp(timer, registry, worker.get());

        Set<Timeout> returned = timer.stop();
        assertThat(returned).hasSize(LEFT_FOR_STOP);
        SharedSnapshotTest.outlastTheSharedSnapshot();
        assertThat(state(registry, "cancelled")).as("stop()'s set counts as cancelled")
                .isEqualTo(CANCELLED + LEFT_FOR_STOP);
        assertThat(gauge(registry, "tickwheel.timeouts.pending")).isZero();
        assertThat(state(registry, "scheduled")).isEqualTo(
                state(registry, "expired") + state(registry, "cancelled")
                        + gauge(registry, "tickwheel.timeouts.pending"));

        List<Meter> meters = registry.getMeters();
        assertThat(meters).allSatisfy(meter -> {
            assertThat(meter.getId().getTag("name")).isEqualTo("orders");
            assertThat(meter.getId().getTag("wheel")).isEqualTo(wheel);
            assertThat(meter.getId().getTag("app")).isEqualTo("shop");
        });
        assertThat(meters.stream().map(m -> m.getId().getName()).collect(Collectors.toSet())).containsExactlyInAnyOrder(
                "tickwheel.timeouts.pending", "tickwheel.timeouts", "tickwheel.task.failures",
                "tickwheel.task.rejections",
                "tickwheel.task.slow", "tickwheel.worker.wakeups", "tickwheel.lateness", "tickwheel.lateness.max",
                "tickwheel.lateness.percentile", "tickwheel.task.duration", "tickwheel.task.duration.max",
                "tickwheel.task.duration.percentile");
    }

    /**
     * On a loaded machine the worker may have run a whole workload without parking in between, so
     * a wake-up is certain only once it has parked: then a timeout due in 1 ms ends the park.
     */
    private static void assertWakesUp(final Timer timer, final MeterRegistry registry, final Thread worker)
            throws InterruptedException {
        await().atMost(Duration.ofSeconds(30)).until(() -> worker.getState() == Thread.State.WAITING
                || worker.getState() == Thread.State.TIMED_WAITING);
        CountDownLatch woke = new CountDownLatch(1);
        timer.newTimeout(t -> woke.countDown(), 1, TimeUnit.MILLISECONDS);
        assertThat(woke.await(30, TimeUnit.SECONDS)).isTrue();
        long before = stats(timer).wakeups(); // the worker may wake again while the meter is read
        SharedSnapshotTest.outlastTheSharedSnapshot(); // so that the meter's snapshot is taken after before's
        double wakeups = counter(registry, "tickwheel.worker.wakeups");
        assertThat(wakeups).isPositive().isBetween((double) before, (double) stats(timer).wakeups());
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashed", "hierarchical"})
    void executorRejections_areCounted(final String wheel) {
        Timer timer = wheel.equals("hashed")
                ? HashedWheelTimer.builder().tickDuration(Duration.ofMillis(1)).taskExecutor(command -> {
                    throw new RejectedExecutionException("full");
                }).build()
                : HierarchicalWheelTimer.builder().taskExecutor(command -> {
                    throw new RejectedExecutionException("full");
                }).build();
        try {
            MeterRegistry registry = new SimpleMeterRegistry();
            new TimerMetrics(timer, "refused", Tags.empty()).bindTo(registry);
            timer.newTimeout(t -> { }, 1, TimeUnit.MILLISECONDS);
            timer.newTimeout(t -> { }, 2, TimeUnit.MILLISECONDS);
            await().atMost(Duration.ofSeconds(30)).until(() -> counter(registry, "tickwheel.task.rejections") == 2);
            assertThat(state(registry, "expired")).isEqualTo(2);
            assertThat(registry.get("tickwheel.task.duration").functionTimer().count()).isZero();
            assertThat(registry.get("tickwheel.lateness").functionTimer().count()).isEqualTo(2);
        } finally {
            timer.stop();
        }
    }

    @Test
    void anotherKindOfTimer_isRefusedWithTheArgumentNamed() {
        Timer other = new Timer() {
            @Override
            public Timeout newTimeout(final io.tickwheel.TimerTask task, final long delay, final TimeUnit unit) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Set<Timeout> stop() {
                return Set.of();
            }

            @Override
            public long pendingTimeouts() {
                return 0;
            }
        };
        assertThatThrownBy(() -> new TimerMetrics(other, "x", Tags.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timer");
        assertThatThrownBy(() -> new TimerMetrics((Timer) null, "x", Tags.empty()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("timer");
    }

    /**
     * Every meter of one histogram equals the snapshot's own value, converted as the meter converts:
     * the count; the total (Micrometer keeps it in seconds, so nanoseconds to seconds and back is
     * exact to well under a nanosecond, not to the last bit of a double); the max and each percentile
     * (nanoseconds / 1e9, the percentile asked for as phi * 100).
     */
    private static void assertHistogramMeters(final MeterRegistry registry, final String name,
            final TimerStats.Histogram histogram) {
        FunctionTimer meter = registry.get(name).functionTimer();
        assertThat(meter.count()).as(name).isEqualTo((double) histogram.count());
        assertThat(meter.totalTime(TimeUnit.NANOSECONDS)).as(name + " total")
                .isCloseTo((double) histogram.sum(), within(1.0));
        assertThat(gauge(registry, name + ".max")).as(name + ".max")
                .isCloseTo(histogram.max() / 1e9, within(1e-12));
        for (String phi : new String[] {"0.5", "0.99", "0.999"}) {
            assertThat(percentile(registry, name, phi)).as(name + " phi " + phi)
                    .isCloseTo(histogram.valueAtPercentile(Double.parseDouble(phi) * 100) / 1e9, within(1e-12));
        }
    }

    private static TimerStats stats(final Timer timer) {
        return WheelMeters.stats(timer);
    }

    private static double gauge(final MeterRegistry registry, final String name) {
        Meter meter = registry.get(name).meter();
        return meter.measure().iterator().next().getValue();
    }

    private static double counter(final MeterRegistry registry, final String name) {
        return registry.get(name).functionCounter().count();
    }

    private static double state(final MeterRegistry registry, final String state) {
        return registry.get("tickwheel.timeouts").tag("state", state).functionCounter().count();
    }

    private static double percentile(final MeterRegistry registry, final String name, final String phi) {
        return registry.get(name + ".percentile").tag("phi", phi).timeGauge().value(TimeUnit.SECONDS);
    }
}
