package io.tickwheel.durable.internal;

/**
 * A copy of one {@link LatencyHistogram}'s buckets taken at one moment, or the difference of two
 * copies: the data behind {@code DurableTimerStats.Histogram}.
 *
 * <p>Threading: immutable (the bucket array is a private copy, never handed out).
 */
public final class HistogramData {

    /** No values. */
    public static final HistogramData EMPTY = new HistogramData(new long[LatencyHistogram.COUNT], 0, 0);

    private final long[] buckets;
    private final long count;
    private final long max;
    private final long sum;

    /** Takes ownership of {@code buckets}; the count is their sum. */
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
     * Returns the value at {@code percentile}: the top of the bucket that holds it, capped by
     * {@link #max()}, so never below the true value and above it by less than one bucket width.
     *
     * @param percentile 0 to 100 (clamped; NaN reads as 100)
     * @return the value, or 0 if nothing was recorded
     */
    public long valueAtPercentile(final double percentile) {
        if (count == 0) {
            return 0;
        }
        double clamped = Double.isNaN(percentile) ? 100 : Math.min(100, Math.max(0, percentile));
        long rank = Math.max(1, (long) Math.ceil(clamped / 100 * count));
        long seen = 0;
        for (int i = 0; i < buckets.length; i++) {
            seen += buckets[i];
            if (seen >= rank) {
                return Math.min(LatencyHistogram.highestValue(i), max);
            }
        }
        return max;
    }

    /**
     * Returns the values recorded after {@code earlier} was taken. An interval's maximum is not
     * recorded, so it is the top of the highest bucket that grew, capped by this copy's maximum.
     *
     * @param earlier a copy of the same histogram taken before this one
     * @return the difference
     */
    public HistogramData minus(final HistogramData earlier) {
        long[] diff = new long[buckets.length];
        int highest = -1;
        for (int i = 0; i < diff.length; i++) {
            diff[i] = Math.max(0, buckets[i] - earlier.buckets[i]);
            if (diff[i] != 0) {
                highest = i;
            }
        }
        long intervalMax = highest < 0 ? 0 : Math.min(LatencyHistogram.highestValue(highest), max);
        return new HistogramData(diff, intervalMax, Math.max(0, sum - earlier.sum));
    }
}
