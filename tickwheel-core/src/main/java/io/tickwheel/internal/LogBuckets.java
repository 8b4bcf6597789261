package io.tickwheel.internal;

/**
 * The fixed log-scale buckets of every tickwheel histogram: values 0 to 31 each get their own
 * bucket, and every power of two above is split into 16 buckets of equal width, so a bucket is
 * never wider than 1/16 of its lower bound. A value's bucket is found with one
 * {@link Long#numberOfLeadingZeros} and a shift, and any non-negative {@code long} fits:
 * {@value #COUNT} buckets cover 0 to {@link Long#MAX_VALUE} nanoseconds.
 *
 * <pre>
 *   bucket   0..31 : exactly 0 .. 31
 *   bucket  32..47 : 32 .. 63 in steps of 2
 *   bucket  48..63 : 64 .. 127 in steps of 4
 *   ...
 *   bucket 959     : 31 * 2^58 .. 2^63 - 1
 * </pre>
 * A percentile read from the buckets is the highest value of the bucket it falls in (capped by
 * the recorded maximum), so it is never below the true percentile and above it by less than one
 * bucket width: under 6.25 % of the value.
 *
 * <p>Threading: immutable (static arithmetic only).
 */
public final class LogBuckets {

    /** log2 of the buckets each power of two is split into. */
    static final int SUB_BITS = 4;
    private static final int SUB = 1 << SUB_BITS;
    /** Number of buckets. */
    public static final int COUNT = (Long.SIZE - SUB_BITS) * SUB;

    private LogBuckets() {
    }

    /**
     * Returns the bucket of {@code value}; a negative value counts as 0.
     *
     * @param value the value
     * @return its bucket, 0 to {@code COUNT - 1}
     */
    public static int index(final long value) {
        if (value < SUB) {
            return value <= 0 ? 0 : (int) value;
        }
        int exponent = Long.SIZE - 1 - Long.numberOfLeadingZeros(value);
        return ((exponent - SUB_BITS + 1) << SUB_BITS) + (int) ((value >>> (exponent - SUB_BITS)) & (SUB - 1));
    }

    /**
     * Returns the lowest value of bucket {@code index}.
     *
     * @param index a bucket
     * @return its lowest value
     */
    public static long lowestValue(final int index) {
        if (index < 2 * SUB) {
            return index;
        }
        int exponent = (index >> SUB_BITS) + SUB_BITS - 1;
        return (long) (SUB + (index & (SUB - 1))) << (exponent - SUB_BITS);
    }

    /**
     * Returns the highest value of bucket {@code index}.
     *
     * @param index a bucket
     * @return its highest value
     */
    public static long highestValue(final int index) {
        if (index < 2 * SUB) {
            return index;
        }
        int exponent = (index >> SUB_BITS) + SUB_BITS - 1;
        return lowestValue(index) + ((1L << (exponent - SUB_BITS)) - 1);
    }

    /**
     * Returns the value at {@code percentile} of the values counted in {@code buckets}: the
     * highest value of the bucket that holds it, capped by {@code max}.
     *
     * @param buckets counts per bucket
     * @param count the sum of {@code buckets}
     * @param max the largest value counted
     * @param percentile 0 to 100 (clamped)
     * @return the value, or 0 if nothing was counted
     */
    public static long valueAtPercentile(final long[] buckets, final long count, final long max,
            final double percentile) {
        if (count <= 0) {
            return 0;
        }
        double clamped = Double.isNaN(percentile) ? 100 : Math.min(100, Math.max(0, percentile));
        long rank = Math.max(1, (long) Math.ceil(clamped / 100 * count));
        long seen = 0;
        for (int i = 0; i < buckets.length; i++) {
            seen += buckets[i];
            if (seen >= rank) {
                return Math.min(highestValue(i), max);
            }
        }
        return max;
    }
}
