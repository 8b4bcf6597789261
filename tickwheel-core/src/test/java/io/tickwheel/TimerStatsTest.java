package io.tickwheel;

import static io.tickwheel.TimerContractSupport.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.internal.HistogramData;
import io.tickwheel.internal.LogBuckets;
import io.tickwheel.internal.LogHistogram;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** stats() of real timers: on a manual clock against an independent record, and on real time. */
class TimerStatsTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long START = 1L << 40;
    /** Every 25th task moves the clock by this much while it runs: a task that blocks the worker. */
    private static final long BLOCK = 7 * MS;

    private static Timer onClock(final String kind, final ManualClock clock, final ThreadFactory factory) {
        return kind.equals("hashed")
                ? new HashedWheelTimer(clock, factory, 1, TimeUnit.MILLISECONDS, 64, false, -1, null)
                : HierarchicalWheelTimer.builder().threadFactory(factory).slowTaskThreshold(Duration.ofMillis(5))
                        .build(clock, true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashed", "hierarchical"})
    void lateness_onAManualClock_equalsAnIndependentRecord(final String kind) {
        long seed = kind.hashCode();
        SplittableRandom random = new SplittableRandom(seed);
        ManualClock clock = new ManualClock(START);
        AtomicReference<Thread> worker = new AtomicReference<>();
        Timer timer = onClock(kind, clock, runnable -> {
            Thread thread = new Thread(runnable, "stats-worker-" + kind);
            thread.setDaemon(true);
            worker.set(thread);
            return thread;
        });
        List<Long> lateness = Collections.synchronizedList(new ArrayList<>());
        int n = 400;
        long lastDeadline = 0;
        int blocking = 0;
        for (int i = 0; i < n; i++) {
            long delay = random.nextLong(0, 60 * MS);
            long deadline = START + delay;
            lastDeadline = Math.max(lastDeadline, deadline);
            boolean blocks = i % 25 == 0;
            blocking += blocks ? 1 : 0;
            timer.newTimeout(t -> {
                // What the task itself sees: the clock when it starts, minus its deadline.
                lateness.add(clock.nanoTime() - deadline);
                if (blocks) {
                    clock.advance(Duration.ofNanos(BLOCK));
                }
            }, delay, TimeUnit.NANOSECONDS);
        }
        clock.attach(worker.get());
        long now = START;
        while (lateness.size() < n) {
            long step = random.nextLong(MS / 10, 3 * MS);
            long reads = clock.workerReads();
            clock.advance(Duration.ofNanos(step));
            now += step;
            // The clock moves only while the worker is parked, after it saw the previous move, so
            // the worker and the tasks read the same times.
            awaitIdle(worker.get(), clock, reads);
            assertThat(now).as("seed %d: all due by now", seed).isLessThan(lastDeadline + 40 * BLOCK + 10 * MS);
        }
        TimerStats stats = StatsReader.stats(timer);
        LogHistogram expected = new LogHistogram();
        List<Long> sorted = new ArrayList<>(lateness);
        sorted.forEach(expected::record);
        Collections.sort(sorted);
        HistogramData reference = expected.snapshot();
        assertThat(sorted.get(0)).as("never early").isGreaterThanOrEqualTo(0);
        assertThat(stats.lateness().count()).isEqualTo(n);
        assertThat(stats.lateness().max()).isEqualTo(sorted.get(n - 1));
        assertThat(stats.lateness().sum()).isEqualTo(reference.sum());
        for (double p : new double[] {0, 50, 90, 99, 99.9, 100}) {
            long exact = sorted.get((int) Math.max(0, Math.ceil(p / 100 * n) - 1));
            assertThat(stats.lateness().valueAtPercentile(p)).as("p%s, seed %d", p, seed)
                    .isEqualTo(reference.valueAtPercentile(p))
                    .isBetween(exact, LogBuckets.highestValue(LogBuckets.index(exact)));
        }
        // A task that blocks the worker for 7 ms makes whatever is due behind it 7 ms late.
        assertThat(stats.lateness().max()).isGreaterThanOrEqualTo(BLOCK);
        assertThat(stats.taskTime().count()).isEqualTo(n);
        assertThat(stats.taskTime().max()).isEqualTo(BLOCK);
        assertThat(stats.taskTime().sum()).isEqualTo(blocking * BLOCK);
        assertThat(stats.slowTasks()).as("5 ms threshold (hierarchical), 100 ms default (hashed)")
                .isEqualTo(kind.equals("hashed") ? 0 : blocking);
        assertThat(stats.expired()).isEqualTo(n);
        assertThat(stats.scheduled()).isEqualTo(n);
        assertThat(stats.pending()).isZero();
        assertThat(stats.wakeups()).isPositive();
        assertThat(timer.stop()).isEmpty();
        assertThat(StatsReader.stats(timer).cancelled()).isZero();
    }

    private static void awaitIdle(final Thread worker, final ManualClock clock, final long readsBefore) {
        awaitUntil(() -> clock.workerReads() > readsBefore
                && (worker.getState() == Thread.State.WAITING || worker.getState() == Thread.State.TIMED_WAITING));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashed", "hierarchical"})
    void executorPath_timesTasksWhereTheyRun_countsFailuresAndSlowTasks(final String kind) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Timer timer = kind.equals("hashed")
                ? HashedWheelTimer.builder().tickDuration(Duration.ofMillis(1)).taskExecutor(pool)
                        .slowTaskThreshold(Duration.ofMillis(40)).build()
                : HierarchicalWheelTimer.builder().taskExecutor(pool).slowTaskThreshold(Duration.ofMillis(40)).build();
        AtomicInteger done = new AtomicInteger();
        try (LogCapture log = LogCapture.of("io.tickwheel." + timer.getClass().getSimpleName())) {
            for (int i = 0; i < 20; i++) {
                int n = i;
                timer.newTimeout(new TimerTask() {
                    @Override
                    public void run(final Timeout timeout) throws Exception {
                        try {
                            if (n == 3) {
                                Thread.sleep(80);
                            }
                            if (n % 5 == 0) {
                                throw new IllegalStateException("failing on purpose");
                            }
                        } finally {
                            done.incrementAndGet();
                        }
                    }

                    @Override
                    public String toString() {
                        return "statsTask-" + n;
                    }
                }, 2 + i, TimeUnit.MILLISECONDS);
            }
            awaitUntil(() -> done.get() == 20 && StatsReader.stats(timer).taskTime().count() == 20);
            TimerStats stats = StatsReader.stats(timer);
            assertThat(stats.expired()).isEqualTo(20);
            assertThat(stats.lateness().count()).isEqualTo(20);
            assertThat(stats.taskFailures()).isEqualTo(4);
            assertThat(stats.slowTasks()).isEqualTo(1);
            assertThat(stats.taskTime().max()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(80));
            assertThat(log.find(Level.WARNING, "statsTask-3 of")).singleElement()
                    .satisfies(r -> assertThat(LogCapture.message(r)).contains("ran for", "40 ms"));
        } finally {
            timer.stop();
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }
}
