package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LogHistogramTest {

    private static final double[] PERCENTILES = {0, 1, 10, 50, 75, 90, 99, 99.9, 99.99, 100};

    @Test
    void buckets_everyValue_fallsInsideItsBucketAndBucketsTile() {
        assertThat(LogBuckets.lowestValue(0)).isZero();
        for (int i = 0; i < LogBuckets.COUNT - 1; i++) {
            assertThat(LogBuckets.highestValue(i) + 1).as("bucket %d", i).isEqualTo(LogBuckets.lowestValue(i + 1));
            assertThat(LogBuckets.index(LogBuckets.lowestValue(i))).isEqualTo(i);
            assertThat(LogBuckets.index(LogBuckets.highestValue(i))).isEqualTo(i);
            long width = LogBuckets.highestValue(i) - LogBuckets.lowestValue(i) + 1;
            assertThat(width).as("bucket %d width", i).isLessThanOrEqualTo(Math.max(1, LogBuckets.lowestValue(i) / 16));
        }
        assertThat(LogBuckets.highestValue(LogBuckets.COUNT - 1)).isEqualTo(Long.MAX_VALUE);
        assertThat(LogBuckets.index(Long.MAX_VALUE)).isEqualTo(LogBuckets.COUNT - 1);
        assertThat(LogBuckets.index(-5)).isZero();
        assertThat(LogBuckets.index(Long.MIN_VALUE)).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"uniform", "exponential", "lateness", "tiny", "huge"})
    void percentiles_matchAnIndependentRecord_withinOneBucket(final String shape) {
        long seed = shape.hashCode() * 31L + 7;
        SplittableRandom random = new SplittableRandom(seed);
        LongSupplier values = switch (shape) {
            case "uniform" -> () -> random.nextLong(0, 2_000_000_000L);
            case "exponential" -> () -> (long) (-Math.log(1 - random.nextDouble()) * 1_000_000);
            case "lateness" -> () -> random.nextInt(100) == 0 ? random.nextLong(5_000_000, 80_000_000)
                    : random.nextLong(0, 1_000_000);
            case "tiny" -> () -> random.nextLong(0, 40);
            default -> () -> Long.MAX_VALUE - random.nextLong(0, Long.MAX_VALUE / 3);
        };
        int n = 50_000;
        long[] recorded = new long[n];
        LogHistogram histogram = new LogHistogram();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            recorded[i] = values.getAsLong();
            histogram.record(recorded[i]);
            sum += recorded[i];
        }
        Arrays.sort(recorded);
        HistogramData data = histogram.snapshot();
        assertThat(data.count()).isEqualTo(n);
        assertThat(data.max()).isEqualTo(recorded[n - 1]);
        assertThat(data.sum()).as("sum (wraps like the reference for the huge shape)").isEqualTo(sum);
        for (double p : PERCENTILES) {
            long exact = recorded[(int) Math.max(0, Math.ceil(p / 100 * n) - 1)];
            long estimate = data.valueAtPercentile(p);
            assertThat(estimate).as("%s p%s (seed %d)", shape, p, seed).isGreaterThanOrEqualTo(exact)
                    .isLessThanOrEqualTo(Math.min(LogBuckets.highestValue(LogBuckets.index(exact)), recorded[n - 1]));
            assertThat((double) (estimate - exact)).as("%s p%s relative error", shape, p)
                    .isLessThanOrEqualTo(Math.max(0, exact / 16.0));
        }
    }

    @Test
    void empty_reportsZeros() {
        HistogramData data = new LogHistogram().snapshot();
        assertThat(data.count()).isZero();
        assertThat(data.max()).isZero();
        assertThat(data.valueAtPercentile(99)).isZero();
        assertThat(data.minus(data).count()).isZero();
    }

    @Test
    void negativeValues_countAsZero() {
        LogHistogram histogram = new LogHistogram();
        histogram.record(-1_000);
        histogram.recordShared(-1);
        HistogramData data = histogram.snapshot();
        assertThat(data.count()).isEqualTo(2);
        assertThat(data.max()).isZero();
        assertThat(data.bucketCount(0)).isEqualTo(2);
    }

    @Test
    void minus_equalsAHistogramOfTheIntervalAlone() {
        SplittableRandom random = new SplittableRandom(42);
        LogHistogram histogram = new LogHistogram();
        for (int i = 0; i < 10_000; i++) {
            histogram.record(random.nextLong(0, 50_000_000));
        }
        HistogramData before = histogram.snapshot();
        LogHistogram intervalOnly = new LogHistogram();
        for (int i = 0; i < 3_000; i++) {
            long value = random.nextLong(0, 1_000_000);
            histogram.record(value);
            intervalOnly.record(value);
        }
        HistogramData interval = histogram.snapshot().minus(before);
        HistogramData expected = intervalOnly.snapshot();
        assertThat(interval.count()).isEqualTo(3_000);
        assertThat(interval.sum()).isEqualTo(expected.sum());
        for (int i = 0; i < LogBuckets.COUNT; i++) {
            assertThat(interval.bucketCount(i)).isEqualTo(expected.bucketCount(i));
        }
        for (double p : PERCENTILES) {
            assertThat(interval.valueAtPercentile(p)).isBetween(expected.valueAtPercentile(p),
                    LogBuckets.highestValue(LogBuckets.index(expected.valueAtPercentile(p))));
        }
        // The interval's max is not recorded: the top of its highest bucket, never below the truth.
        assertThat(interval.max()).isBetween(expected.max(), LogBuckets.highestValue(LogBuckets.index(expected.max())));
        assertThat(interval.max()).isLessThan(before.max());
    }

    @Test
    void snapshot_isACopy_laterRecordsDoNotChangeIt() {
        LogHistogram histogram = new LogHistogram();
        histogram.record(1_000);
        HistogramData first = histogram.snapshot();
        histogram.record(9_000_000);
        assertThat(first.count()).isEqualTo(1);
        assertThat(first.max()).isEqualTo(1_000);
        assertThat(first.valueAtPercentile(100)).isEqualTo(1_000);
        assertThat(histogram.snapshot().count()).isEqualTo(2);
        assertThat(first).isEqualTo(new HistogramData(copyOf(first), 1_000, 1_000)).isNotEqualTo(histogram.snapshot());
    }

    private static long[] copyOf(final HistogramData data) {
        long[] buckets = new long[LogBuckets.COUNT];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = data.bucketCount(i);
        }
        return buckets;
    }

    @Test
    void recordShared_manyThreads_countsEveryValue() throws Exception {
        LogHistogram histogram = new LogHistogram();
        int threads = 4;
        int perThread = 100_000;
        CountDownLatch start = new CountDownLatch(1);
        Thread[] writers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            long offset = t;
            writers[t] = new Thread(() -> {
                awaitQuietly(start);
                for (int i = 0; i < perThread; i++) {
                    histogram.recordShared(i * 4L + offset);
                }
            });
            writers[t].start();
        }
        start.countDown();
        for (Thread writer : writers) {
            writer.join();
        }
        HistogramData data = histogram.snapshot();
        long n = (long) threads * perThread;
        assertThat(data.count()).isEqualTo(n);
        assertThat(data.max()).isEqualTo(n - 1);
        assertThat(data.sum()).isEqualTo(n * (n - 1) / 2);
    }

    /** One writer, one reader: every copy is internally consistent and counts only grow. */
    @Test
    void snapshot_racingTheWriter_isConsistentAndMonotonic() throws Exception {
        LogHistogram histogram = new LogHistogram();
        int n = 2_000_000;
        AssertionError failure = null;
        Thread writer = new Thread(() -> {
            for (int i = 1; i <= n; i++) {
                histogram.record(i);
            }
        });
        writer.start();
        long lastCount = 0;
        int reads = 0;
        while (writer.isAlive() || reads == 0) {
            HistogramData data = histogram.snapshot();
            reads++;
            try {
                assertThat(data.count()).isGreaterThanOrEqualTo(lastCount);
                // Values are 1..k in order, so a copy holding count c holds 1..c: its max and sum cover them.
                assertThat(data.max()).isGreaterThanOrEqualTo(data.count() == 0 ? 0 : LogBuckets.lowestValue(
                        LogBuckets.index(data.count())));
                assertThat(data.sum()).isGreaterThanOrEqualTo(data.count() * (data.count() + 1) / 2);
                assertThat(data.valueAtPercentile(100)).isLessThanOrEqualTo(data.max());
            } catch (AssertionError e) {
                failure = e;
                break;
            }
            lastCount = data.count();
        }
        writer.join();
        assertThat(failure).isNull();
        HistogramData end = histogram.snapshot();
        assertThat(end.count()).isEqualTo(n);
        assertThat(end.max()).isEqualTo(n);
        assertThat(end.sum()).isEqualTo((long) n * (n + 1) / 2);
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
