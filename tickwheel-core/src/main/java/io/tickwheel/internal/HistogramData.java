package io.tickwheel.internal;

import java.util.Arrays;

/**
 * A copy of one {@link LogHistogram}'s buckets taken at one moment, or the difference of two
 * copies: the data behind {@code TimerStats.Histogram}.
 *
 * <p>Threading: immutable (the bucket array is a private copy, never handed out).
 */
public final class HistogramData {

    /** No values. */
    public static final HistogramData EMPTY = new HistogramData(new long[LogBuckets.COUNT], 0, 0);

    private final long[] buckets;
    private final long count;
    private final long max;
    private final long sum;

    /** Takes ownership of {@code buckets}; {@code count} is their sum. */
    HistogramData(final long[] buckets, final long max, final long sum) {
        this.buckets = buckets;
        long total = 0;
        for (long bucket : buckets) {
            total += bucket;
        }
        this.count = total;
        this.max = total == 0 ? 0 : max;
        this.sum = total == 0 ? 0 : sum;
    }

    /**
     * Returns how many values were recorded.
     *
     * @return the count
     */
    public long count() {
        return count;
    }

    /**
     * Returns the largest value recorded (0 if none).
     *
     * @return the maximum
     */
    public long max() {
        return max;
    }

    /**
     * Returns the sum of the values recorded.
     *
     * @return the sum
     */
    public long sum() {
        return sum;
    }

    /**
     * Returns the value at {@code percentile}; see {@link LogBuckets#valueAtPercentile}.
     *
     * @param percentile 0 to 100
     * @return the value
     */
    public long valueAtPercentile(final double percentile) {
        return LogBuckets.valueAtPercentile(buckets, count, max, percentile);
    }

    /**
     * Returns the values recorded after {@code earlier} was taken. The maximum of an interval is
     * not recorded, so it is the highest value of the highest bucket that grew, capped by this
     * copy's maximum: exact when the interval holds the largest value ever recorded, else above
     * the true interval maximum by less than one bucket width.
     *
     * @param earlier a copy of the same histogram taken before this one
     * @return the difference
     */
    public HistogramData minus(final HistogramData earlier) {
        long[] diff = new long[LogBuckets.COUNT];
        int highest = -1;
        for (int i = 0; i < diff.length; i++) {
            diff[i] = Math.max(0, buckets[i] - earlier.buckets[i]);
            if (diff[i] != 0) {
                highest = i;
            }
        }
        long intervalMax = highest < 0 ? 0 : Math.min(LogBuckets.highestValue(highest), max);
        return new HistogramData(diff, intervalMax, Math.max(0, sum - earlier.sum));
    }

    /**
     * Returns the count of one bucket, for tests and reports.
     *
     * @param index a bucket
     * @return its count
     */
    public long bucketCount(final int index) {
        return buckets[index];
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof HistogramData that && max == that.max && sum == that.sum
                && Arrays.equals(buckets, that.buckets);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(buckets) * 31 + Long.hashCode(max);
    }
}
