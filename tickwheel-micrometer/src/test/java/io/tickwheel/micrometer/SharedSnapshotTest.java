package io.tickwheel.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timer;
import io.tickwheel.TimerStats;
import io.tickwheel.durable.DurableTimer;
import io.tickwheel.durable.DurableTimerStats;
import io.tickwheel.durable.JournalStore;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The meters of one binding share one snapshot per interval, and still hold the timer only weakly. */
class SharedSnapshotTest {

    private static final long MAX_AGE = SnapshotMemo.MAX_AGE.toNanos();
    private static final int LOOPS = 1_000;

    @TempDir
    Path dir;

    /** A clock of the test's, which moves only when told to. */
    private final AtomicLong now = new AtomicLong(123_456_789L);
    /** Snapshots the memo took: a counting wrapper around the real source. */
    private final AtomicInteger taken = new AtomicInteger();

    private SnapshotMemo<Timer, TimerStats> countingMemo() {
        AtomicInteger count = taken; // the source captures the counter, never a timer
        return new SnapshotMemo<>(t -> {
            count.incrementAndGet();
            return WheelMeters.stats(t);
        }, now::get, SnapshotMemo.MAX_AGE);
    }

    private static Timer timer(final String wheel) {
        return wheel.equals("hashed") ? HashedWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build()
                : HierarchicalWheelTimer.builder().build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashed", "hierarchical"})
    void everyMeter_readInATightLoop_takesOneSnapshotPerInterval(final String wheel) {
        Timer timer = timer(wheel);
        try {
            MeterRegistry registry = new SimpleMeterRegistry();
            new WheelMeters(timer, Tags.of("name", "loop"), countingMemo()).bindTo(registry);
            assertThat(registry.getMeters()).as("one scrape's worth").hasSize(19);

            assertThat(readAll(registry, LOOPS)).isEqualTo(LOOPS * 19);
            assertThat(taken).as("the first read takes it, every other read shares it").hasValue(1);

            now.addAndGet(MAX_AGE - 1);
            readAll(registry, LOOPS);
            assertThat(taken).as("1 ns younger than the interval: still shared").hasValue(1);

            now.addAndGet(1);
            readAll(registry, LOOPS);
            assertThat(taken).as("as old as the interval: one new snapshot, then shared").hasValue(2);

            now.addAndGet(10 * MAX_AGE);
            readAll(registry, LOOPS);
            assertThat(taken).hasValue(3);
        } finally {
            timer.stop();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashed", "hierarchical"})
    void afterTheInterval_aNewSnapshotIsTaken_andEveryMeterReadsItsValues(final String wheel) {
        Timer timer = timer(wheel);
        try {
            MeterRegistry registry = new SimpleMeterRegistry();
            new WheelMeters(timer, Tags.of("name", "fresh"), countingMemo()).bindTo(registry);
            assertThat(state(registry, "scheduled")).isZero();
            assertThat(registry.get("tickwheel.timeouts.pending").gauge().value()).isZero();

            CountDownLatch ran = new CountDownLatch(1);
            timer.newTimeout(t -> ran.countDown(), 1, TimeUnit.MILLISECONDS);
            timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
            timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                TimerStats direct = WheelMeters.stats(timer); // not through the memo
                return direct.scheduled() == 3 && direct.taskTime().count() == 1;
            });

            assertThat(state(registry, "scheduled")).as("within the interval: the shared snapshot").isZero();
            assertThat(registry.get("tickwheel.task.duration").functionTimer().count()).isZero();
            assertThat(taken).hasValue(1);

            now.addAndGet(MAX_AGE);
            assertThat(state(registry, "scheduled")).isEqualTo(3);
            assertThat(state(registry, "expired")).isEqualTo(1);
            assertThat(registry.get("tickwheel.timeouts.pending").gauge().value()).isEqualTo(2);
            assertThat(registry.get("tickwheel.task.duration").functionTimer().count()).isEqualTo(1);
            assertThat(registry.get("tickwheel.lateness").functionTimer().count()).isEqualTo(1);
            assertThat(registry.get("tickwheel.task.duration.max").timeGauge().value(TimeUnit.NANOSECONDS))
                    .isPositive();
            assertThat(taken).as("one new snapshot for all of those").hasValue(2);
        } finally {
            timer.stop();
        }
    }

    @Test
    void concurrentReaders_shareOneSnapshot() throws Exception {
        Timer timer = timer("hierarchical");
        ExecutorService readers = Executors.newFixedThreadPool(8);
        try {
            MeterRegistry registry = new SimpleMeterRegistry();
            // A snapshot that has just gone stale, then the next one held back until all 8 readers have
            // looked at the clock, that is, until each has found the snapshot stale and gone for a new
            // one: without the memo's lock they would all take their own. Bounded, so a broken memo
            // fails the count instead of hanging.
            AtomicInteger clockReads = new AtomicInteger(1_000); // no hold-back until set to 0 below
            AtomicInteger count = taken;
            SnapshotMemo<Timer, TimerStats> gated = new SnapshotMemo<>(t -> {
                count.incrementAndGet();
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (clockReads.get() < 8 && System.nanoTime() < giveUp) {
                    Thread.onSpinWait();
                }
                return WheelMeters.stats(t);
            }, () -> {
                clockReads.incrementAndGet();
                return now.get();
            }, SnapshotMemo.MAX_AGE);
            new WheelMeters(timer, Tags.of("name", "racing"), gated).bindTo(registry);
            readAll(registry, 1);
            assertThat(taken).hasValue(1);
            now.addAndGet(MAX_AGE);
            clockReads.set(0);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> reads = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                reads.add(readers.submit(() -> {
                    start.await();
                    return readAll(registry, 200);
                }));
            }
            start.countDown();
            for (Future<Integer> read : reads) {
                assertThat(read.get(60, TimeUnit.SECONDS)).isEqualTo(200 * registry.getMeters().size());
            }
            assertThat(taken).as("readers racing past a stale snapshot wait for one new one").hasValue(2);
        } finally {
            readers.shutdownNow();
            timer.stop();
        }
    }

    @Test
    void durableMeters_readInATightLoop_takeOneSnapshotPerInterval() {
        AtomicInteger count = taken;
        SnapshotMemo<DurableTimer, DurableTimerStats> memo = new SnapshotMemo<>(t -> {
            count.incrementAndGet();
            return t.stats();
        }, now::get, SnapshotMemo.MAX_AGE);
        try (DurableTimer timeouts = DurableTimer.builder(JournalStore.open(dir)).handler("ok", t -> { }).build()) {
            MeterRegistry registry = new SimpleMeterRegistry();
            new DurableMeters(timeouts, Tags.of("name", "durable"), memo).bindTo(registry);
            readAll(registry, LOOPS);
            assertThat(taken).hasValue(1);
            assertThat(state(registry, "scheduled")).isZero();

            timeouts.schedule("ok", "k", new byte[0], Duration.ofHours(1)); // counted when acknowledged
            assertThat(state(registry, "scheduled")).as("within the interval").isZero();
            now.addAndGet(MAX_AGE);
            assertThat(state(registry, "scheduled")).isEqualTo(1);
            assertThat(registry.get("tickwheel.store.latency").tag("op", "schedule").functionTimer().count())
                    .isEqualTo(1);
            readAll(registry, LOOPS);
            assertThat(taken).hasValue(2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashed", "hierarchical", "durable"})
    void theMeters_andTheirSharedSnapshot_doNotKeepAStoppedTimerReachable(final String wheel) {
        MeterRegistry registry = new SimpleMeterRegistry();
        WeakReference<Object> timer = bindReadAndStop(wheel, registry);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            System.gc();
            return timer.get() == null;
        });
        assertThat(registry.get("tickwheel.timeouts").tag("state", "scheduled").functionCounter().count())
                .as("the last value read").isEqualTo(1);
        assertThat(registry.get("tickwheel.timeouts.pending").gauge().value()).as("no timer, no value").isNaN();
    }

    /** In a method of its own, so that no local variable of the test keeps the timer. */
    private WeakReference<Object> bindReadAndStop(final String wheel, final MeterRegistry registry) {
        if (wheel.equals("durable")) {
            DurableTimer timeouts = DurableTimer.builder(JournalStore.open(dir)).handler("ok", t -> { }).build();
            new TimerMetrics(timeouts, "weak", Tags.empty()).bindTo(registry);
            timeouts.schedule("ok", "k", new byte[0], Duration.ofHours(1));
            assertThat(readAll(registry, 1)).isPositive();
            assertThat(state(registry, "scheduled")).isEqualTo(1);
            timeouts.close();
            return new WeakReference<>(timeouts);
        }
        Timer timer = timer(wheel);
        new TimerMetrics(timer, "weak", Tags.empty()).bindTo(registry);
        timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
        await().atMost(Duration.ofSeconds(30)).until(() -> WheelMeters.stats(timer).scheduled() == 1);
        outlastTheSharedSnapshot();
        assertThat(readAll(registry, 1)).isPositive();
        assertThat(state(registry, "scheduled")).as("the memo holds a snapshot").isEqualTo(1);
        timer.stop();
        return new WeakReference<>(timer);
    }

    @Test
    void aZeroInterval_takesASnapshotOnEveryRead_andANegativeOneIsRefused() {
        AtomicInteger count = taken;
        SnapshotMemo<String, Integer> memo = new SnapshotMemo<>(s -> count.incrementAndGet(), now::get,
                Duration.ZERO);
        assertThat(memo.get("a")).isEqualTo(1);
        assertThat(memo.get("a")).isEqualTo(2);
        assertThatThrownBy(() -> new SnapshotMemo<String, Integer>(s -> 0, now::get, Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxAge");
        assertThat(SnapshotMemo.MAX_AGE).as("the documented default").isEqualTo(Duration.ofMillis(100));
    }

    /**
     * Waits, by {@link System#nanoTime()} (the default memo's clock), until any snapshot the meters
     * share is older than the interval, so that the next meter read takes a new one: for tests that
     * use the real clock and must see what they just did.
     */
    static void outlastTheSharedSnapshot() {
        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                .until(() -> System.nanoTime() - start > MAX_AGE);
    }

    /** Reads every value of every meter {@code times} times over, as a scrape does; returns the meters read. */
    private static int readAll(final MeterRegistry registry, final int times) {
        int meters = 0;
        for (int i = 0; i < times; i++) {
            for (Meter meter : registry.getMeters()) {
                for (Measurement measurement : meter.measure()) {
                    assertThat(measurement.getValue()).isNotNegative();
                }
                meters++;
            }
        }
        return meters;
    }

    private static double state(final MeterRegistry registry, final String state) {
        return registry.get("tickwheel.timeouts").tag("state", state).functionCounter().count();
    }
}
