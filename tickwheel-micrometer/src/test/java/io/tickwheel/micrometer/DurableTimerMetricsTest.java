package io.tickwheel.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tickwheel.durable.DurableTimer;
import io.tickwheel.durable.DurableTimerStats;
import io.tickwheel.durable.JournalStore;
import io.tickwheel.durable.TimerStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A known workload on a DurableTimer over a JournalStore, then every durable meter read back. */
class DurableTimerMetricsTest {

    private static final int FAR = 10;
    private static final int CANCELLED = 4;
    private static final int DUE = 3;
    private static final long SLOW_SCHEDULE_MILLIS = 200;

    @TempDir
    Path dir;

    @Test
    void everyDurableMeter_afterAKnownWorkload_readsWhatHappened() {
        MeterRegistry meterRegistry = new SimpleMeterRegistry();
        AtomicInteger flakyRuns = new AtomicInteger();
        DurableTimer timeouts = DurableTimer.builder(oneSlowSchedule(JournalStore.open(dir)))
                .retry(2, Duration.ofMillis(10))
                .handler("ok", t -> { })
                .handler("flaky", t -> {
                    if (flakyRuns.incrementAndGet() == 1) {
                        throw new IllegalStateException("first run fails on purpose");
                    }
                })
                .handler("bad", t -> {
                    throw new IllegalStateException("always fails on purpose");
                }).build();
        try (timeouts) {
            new TimerMetrics(timeouts, "order-timeouts", Tags.of("app", "shop")).bindTo(meterRegistry);
            for (int i = 0; i < FAR; i++) {
                timeouts.schedule("ok", "far-" + i, new byte[0], Duration.ofHours(1));
            }
            for (int i = 0; i < CANCELLED; i++) {
                assertThat(timeouts.cancel("ok", "far-" + i)).isTrue();
            }
            assertThat(timeouts.cancel("ok", "never-scheduled")).isFalse();
            for (int i = 0; i < DUE; i++) {
                timeouts.schedule("ok", "due-" + i, new byte[0], Duration.ZERO);
            }
            timeouts.schedule("flaky", "f", new byte[0], Duration.ZERO);
            timeouts.schedule("bad", "b", new byte[0], Duration.ZERO);
            await().atMost(Duration.ofSeconds(30)).until(() -> state(meterRegistry, "failed") == 1
                    && state(meterRegistry, "fired") == DUE + 1
                    && gauge(meterRegistry, "tickwheel.timeouts.pending") == FAR - CANCELLED);
            // The meters share one snapshot per 100 ms: read one taken after the workload, not the await's.
            SharedSnapshotTest.outlastTheSharedSnapshot();

            assertThat(state(meterRegistry, "scheduled")).isEqualTo(FAR + DUE + 2);
            assertThat(state(meterRegistry, "cancelled")).isEqualTo(CANCELLED);
            assertThat(state(meterRegistry, "fired")).isEqualTo(DUE + 1);
            assertThat(state(meterRegistry, "retried")).as("flaky's first run and bad's first of two").isEqualTo(2);
            assertThat(state(meterRegistry, "failed")).isEqualTo(1);
            assertThat(counter(meterRegistry, "tickwheel.claims.refused")).isZero();
            assertThat(counter(meterRegistry, "tickwheel.store.errors")).isZero();

            // The README's example: the snapshot agrees with the meters.
            DurableTimerStats stats = timeouts.stats();
            assertThat(stats.retried()).isEqualTo(2);
            assertThat(stats.scheduleLatency().valueAtPercentile(99)).isPositive()
                    .isLessThanOrEqualTo(stats.scheduleLatency().max());
            FunctionTimer schedule = latency(meterRegistry, "schedule");
            assertThat(schedule.count()).isEqualTo(FAR + DUE + 2);
            // Micrometer keeps the total in seconds: nanoseconds to seconds and back is exact to well
            // under a nanosecond, not to the last bit of a double.
            assertThat(schedule.totalTime(TimeUnit.NANOSECONDS))
                    .isCloseTo((double) stats.scheduleLatency().sum(), within(1.0));
            assertThat(schedule.totalTime(TimeUnit.SECONDS)).isPositive().isLessThan(60);
            assertThat(latency(meterRegistry, "cancel").count()).as("every acknowledged cancel")
                    .isEqualTo(CANCELLED + 1);
            // Spread, so that a percentile read at the wrong scale (0.999 for 99.9) reads another value.
            assertThat(stats.scheduleLatency().valueAtPercentile(0.999))
                    .isLessThan(stats.scheduleLatency().valueAtPercentile(99.9));
            assertLatencyGauges(meterRegistry, "schedule", stats.scheduleLatency());
            assertLatencyGauges(meterRegistry, "cancel", stats.cancelLatency());

            List<Meter> meters = meterRegistry.getMeters();
            assertThat(meters).allSatisfy(meter -> {
                assertThat(meter.getId().getTag("name")).isEqualTo("order-timeouts");
                assertThat(meter.getId().getTag("wheel")).isEqualTo("durable");
                assertThat(meter.getId().getTag("app")).isEqualTo("shop");
            });
            assertThat(meters.stream().map(m -> m.getId().getName()).collect(Collectors.toSet()))
                    .containsExactlyInAnyOrder("tickwheel.timeouts.pending", "tickwheel.timeouts",
                            "tickwheel.claims.refused", "tickwheel.store.errors", "tickwheel.store.latency",
                            "tickwheel.store.latency.max", "tickwheel.store.latency.percentile");
            assertThat(meterRegistry.find("tickwheel.timeouts").functionCounters()).hasSize(5);
        }
        assertThat(gauge(meterRegistry, "tickwheel.timeouts.pending")).as("closed: the store cannot be read").isNaN();
        assertThat(state(meterRegistry, "scheduled")).as("counts outlive close").isEqualTo(FAR + DUE + 2);
    }

    /**
     * The store with its schedule of {@code far-0} made slow, so that the schedule latencies spread over
     * more than one bucket whatever the disk: the latency is timed around the store's call.
     */
    private static TimerStore oneSlowSchedule(final TimerStore store) {
        return (TimerStore) Proxy.newProxyInstance(TimerStore.class.getClassLoader(),
                new Class<?>[] {TimerStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("schedule") && "far-0".equals(args[1])) {
                        Thread.sleep(SLOW_SCHEDULE_MILLIS);
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /**
     * The max and each percentile gauge of one op equal the snapshot's own value, converted as the
     * meter converts (nanoseconds / 1e9, the percentile asked for as phi * 100). The workload is over
     * when the snapshot is read, so both read the same histogram.
     */
    private static void assertLatencyGauges(final MeterRegistry registry, final String op,
            final DurableTimerStats.Histogram histogram) {
        double max = registry.get("tickwheel.store.latency.max").tag("op", op).timeGauge().value(TimeUnit.SECONDS);
        assertThat(max).as(op).isCloseTo(histogram.max() / 1e9, within(1e-12)).isPositive().isLessThan(30);
        for (String phi : new String[] {"0.5", "0.99", "0.999"}) {
            assertThat(percentile(registry, op, phi)).as(op + " phi " + phi)
                    .isCloseTo(histogram.valueAtPercentile(Double.parseDouble(phi) * 100) / 1e9, within(1e-12));
        }
    }

    private static double gauge(final MeterRegistry registry, final String name) {
        return registry.get(name).gauge().value();
    }

    private static double counter(final MeterRegistry registry, final String name) {
        return registry.get(name).functionCounter().count();
    }

    private static double state(final MeterRegistry registry, final String state) {
        return registry.get("tickwheel.timeouts").tag("state", state).functionCounter().count();
    }

    private static FunctionTimer latency(final MeterRegistry registry, final String op) {
        return registry.get("tickwheel.store.latency").tag("op", op).functionTimer();
    }

    private static double percentile(final MeterRegistry registry, final String op, final String phi) {
        return registry.get("tickwheel.store.latency.percentile").tag("op", op).tag("phi", phi).timeGauge()
                .value(TimeUnit.SECONDS);
    }
}
