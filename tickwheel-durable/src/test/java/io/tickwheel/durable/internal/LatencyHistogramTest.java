package io.tickwheel.durable.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.internal.HistogramData;
import io.tickwheel.internal.LogBuckets;
import io.tickwheel.internal.LogHistogram;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The core's log-bucket histogram as the durable statistics use it (recorded from any thread):
 * buckets, percentiles, intervals and concurrent recording.
 */
class LatencyHistogramTest {

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 31, 32, 33, 63, 64, 1000, 999_999, 1L << 40, Long.MAX_VALUE - 1, Long.MAX_VALUE})
    void everyValue_fallsInABucketThatHoldsIt_noWiderThanASixteenth(final long value) {
        int index = LogBuckets.index(value);
        assertThat(index).isBetween(0, LogBuckets.COUNT - 1);
        long top = LogBuckets.highestValue(index);
        assertThat(top).isGreaterThanOrEqualTo(value);
        long low = index == 0 ? 0 : LogBuckets.highestValue(index - 1) + 1;
        assertThat(low).isLessThanOrEqualTo(value);
        assertThat(top - low).isLessThanOrEqualTo(Math.max(0, low / 16));
    }

    @Test
    void percentiles_neverBelowTheTrueValue_andAboveItByLessThanASixteenth() {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        LogHistogram histogram = new LogHistogram();
        List<Long> values = new ArrayList<>();
        long sum = 0;
        for (int i = 0; i < 10_000; i++) {
            long v = random.nextLong(1, 50_000_000);
            values.add(v);
            sum += v;
            histogram.recordShared(v);
        }
        histogram.recordShared(-5); // a clock that stepped back counts as 0
        values.add(0L);
        values.sort(null);
        HistogramData data = histogram.snapshot();
        assertThat(data.count()).isEqualTo(values.size());
        assertThat(data.sum()).isEqualTo(sum);
        assertThat(data.max()).isEqualTo(values.get(values.size() - 1));
        for (double p : new double[] {0, 1, 50, 90, 99, 99.9, 100}) {
            long exact = values.get((int) Math.max(0, Math.ceil(p / 100 * values.size()) - 1));
            assertThat(data.valueAtPercentile(p)).as("seed %d, p%s", seed, p)
                    .isGreaterThanOrEqualTo(exact).isLessThanOrEqualTo(exact + exact / 16);
        }
        assertThat(data.valueAtPercentile(Double.NaN)).isEqualTo(data.max());
        assertThat(HistogramData.EMPTY.valueAtPercentile(50)).isZero();
    }

    @Test
    void minus_holdsTheIntervalOnly() {
        LogHistogram histogram = new LogHistogram();
        histogram.recordShared(1_000_000);
        HistogramData before = histogram.snapshot();
        histogram.recordShared(10);
        histogram.recordShared(20);
        HistogramData interval = histogram.snapshot().minus(before);
        assertThat(interval.count()).isEqualTo(2);
        assertThat(interval.sum()).isEqualTo(30);
        assertThat(interval.max()).isEqualTo(20);
        HistogramData nothing = histogram.snapshot().minus(histogram.snapshot());
        assertThat(nothing.count()).isZero();
        assertThat(nothing.max()).isZero();
    }

    @Test
    void concurrentRecords_loseNothing() throws InterruptedException {
        LogHistogram histogram = new LogHistogram();
        int threads = 4;
        int each = 20_000;
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long value = 100L << t;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    histogram.recordShared(value);
                }
            });
            started.add(thread);
            thread.start();
        }
        for (Thread thread : started) {
            thread.join(60_000);
            assertThat(thread.isAlive()).isFalse();
        }
        HistogramData data = histogram.snapshot();
        assertThat(data.count()).isEqualTo((long) threads * each);
        assertThat(data.sum()).isEqualTo(each * (100L + 200 + 400 + 800));
        assertThat(data.max()).isEqualTo(800);
    }
}
