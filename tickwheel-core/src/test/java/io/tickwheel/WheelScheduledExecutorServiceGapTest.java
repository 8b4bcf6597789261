package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Periodic runs are bounded from above as well as below, in the style of the JDK's TCK: the gap
 * between two runs stays under twice the period (or delay), so a periodic task that stalls, or
 * whose re-arm waits for something else, fails.
 */
class WheelScheduledExecutorServiceGapTest {

    private static final long PERIOD_MILLIS = 200;
    private static final int RUNS = 6;

    private final Timer timer = HierarchicalWheelTimer.builder().threadFactory(r -> new Thread(r, "gap-timer"))
            .tickDuration(Duration.ofMillis(1)).build();
    private final ExecutorService workers = Executors.newFixedThreadPool(2);
    private final WheelScheduledExecutorService executor = new WheelScheduledExecutorService(timer, workers);

    @AfterEach
    void tearDown() throws InterruptedException {
        executor.shutdownNow();
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        workers.shutdownNow();
        timer.stop();
    }

    private static long[] gapsOf(final AtomicLongArray startedAt) {
        long[] gaps = new long[RUNS - 1];
        for (int i = 1; i < RUNS; i++) {
            gaps[i - 1] = startedAt.get(i) - startedAt.get(i - 1);
        }
        return gaps;
    }

    private ScheduledFuture<?> record(final boolean fixedRate, final AtomicLongArray startedAt,
            final CountDownLatch done) {
        Runnable body = () -> {
            int run = (int) (RUNS - done.getCount());
            if (run < RUNS) {
                startedAt.set(run, System.nanoTime());
                done.countDown();
            }
        };
        return fixedRate
                ? executor.scheduleAtFixedRate(body, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS)
                : executor.scheduleWithFixedDelay(body, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Test
    void scheduleAtFixedRate_gapsBetweenRuns_underTwicePeriodAndRateHolds() throws Exception {
        AtomicLongArray startedAt = new AtomicLongArray(RUNS);
        CountDownLatch done = new CountDownLatch(RUNS);
        long start = System.nanoTime();
        ScheduledFuture<?> future = record(true, startedAt, done);

        assertThat(done.await(RUNS * PERIOD_MILLIS * 10, TimeUnit.MILLISECONDS)).isTrue();
        future.cancel(false);

        long period = TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS);
        for (long gap : gapsOf(startedAt)) {
            assertThat(gap).isLessThan(2 * period);
        }
        // No drift: run k starts at or after start + (k + 1) * period, and before one more period.
        for (int k = 0; k < RUNS; k++) {
            long due = start + (k + 1) * period;
            assertThat(startedAt.get(k) - due).as("run %d after its due time", k).isBetween(0L, period);
        }
    }

    @Test
    void scheduleWithFixedDelay_gapsBetweenRuns_atLeastDelayAndUnderTwiceIt() throws Exception {
        AtomicLongArray startedAt = new AtomicLongArray(RUNS);
        CountDownLatch done = new CountDownLatch(RUNS);
        ScheduledFuture<?> future = record(false, startedAt, done);

        assertThat(done.await(RUNS * PERIOD_MILLIS * 10, TimeUnit.MILLISECONDS)).isTrue();
        future.cancel(false);

        long delay = TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS);
        for (long gap : gapsOf(startedAt)) {
            assertThat(gap).isGreaterThanOrEqualTo(delay).isLessThan(2 * delay);
        }
    }
}
