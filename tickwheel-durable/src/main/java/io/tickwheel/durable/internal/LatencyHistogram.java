package io.tickwheel.durable.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A histogram of nanosecond latencies that any number of threads record into without a lock, in
 * fixed log-scale buckets: values 0 to 31 each get their own bucket, and every power of two above is
 * split into 16 buckets of equal width, so a bucket is never wider than 1/16 of its lower bound and
 * {@value #COUNT} buckets cover every non-negative {@code long}. This is the layout of the core's
 * {@code TimerStats.Histogram}, whose recorder is internal to the core and not exported.
 *
 * <pre>
 *   bucket   0..31 : exactly 0 .. 31
 *   bucket  32..47 : 32 .. 63 in steps of 2
 *   bucket  48..63 : 64 .. 127 in steps of 4
 *   ...
 * </pre>
 *
 * <h2>Memory ordering</h2>
 * A value is recorded with three atomic read-modify-writes (volatile mode), in this order: the
 * maximum (a CAS loop, skipped when the value is not larger), the sum, then its bucket. A
 * {@link #snapshot()} loads every bucket with acquire first, and the maximum and the sum after them:
 * seeing a bucket's count therefore means seeing the maximum and sum updates made before it, so the
 * copy's maximum and sum cover every value its buckets hold. They may also cover a value whose bucket
 * update the reader missed: the maximum is then capped at the top of the highest counted bucket, and
 * the sum is ahead by at most the values being recorded at that instant. When nothing is being
 * recorded the copy is exact.
 *
 * <p>Threading: thread-safe (lock-free; see above).
 */
public final class LatencyHistogram {

    /** log2 of the buckets each power of two is split into. */
    private static final int SUB_BITS = 4;
    private static final int SUB = 1 << SUB_BITS;
    /** Number of buckets. */
    static final int COUNT = (Long.SIZE - SUB_BITS) * SUB;

    private static final VarHandle BUCKETS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle MAX;
    private static final VarHandle SUM;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MAX = lookup.findVarHandle(LatencyHistogram.class, "max", long.class);
            SUM = lookup.findVarHandle(LatencyHistogram.class, "sum", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] buckets = new long[COUNT];
    /** Written by CAS from any recording thread, read with acquire by snapshot(). */
    @SuppressWarnings("unused") // accessed through MAX
    private long max;
    /** Written by atomic add from any recording thread, read with acquire by snapshot(). */
    @SuppressWarnings("unused") // accessed through SUM
    private long sum;

    /**
     * Records a value from any thread. A negative value (a clock that stepped back) counts as 0.
     *
     * @param nanos the latency
     */
    public void record(final long nanos) {
        long v = Math.max(0, nanos);
        long current = (long) MAX.getAcquire(this);
        while (v > current) {
            long witness = (long) MAX.compareAndExchange(this, current, v);
            if (witness == current) {
                break;
            }
            current = witness;
        }
        SUM.getAndAdd(this, v);
        // Volatile add: pairs with the acquire load of each bucket in snapshot().
        BUCKETS.getAndAdd(buckets, index(v), 1L);
    }

    /**
     * Copies the histogram; see the class comment for what a copy taken during a record holds.
     *
     * @return the copy
     */
    public HistogramData snapshot() {
        long[] copy = new long[COUNT];
        int highest = -1;
        for (int i = 0; i < copy.length; i++) {
            long count = (long) BUCKETS.getAcquire(buckets, i);
            copy[i] = count;
            if (count != 0) {
                highest = i;
            }
        }
        if (highest < 0) {
            return HistogramData.EMPTY;
        }
        long maxSeen = Math.min((long) MAX.getAcquire(this), highestValue(highest));
        return new HistogramData(copy, maxSeen, (long) SUM.getAcquire(this));
    }

    /**
     * Returns the bucket of {@code value}; a negative value counts as 0.
     *
     * @param value the value
     * @return its bucket, 0 to {@code COUNT - 1}
     */
    static int index(final long value) {
        if (value < SUB) {
            return value <= 0 ? 0 : (int) value;
        }
        int exponent = Long.SIZE - 1 - Long.numberOfLeadingZeros(value);
        return ((exponent - SUB_BITS + 1) << SUB_BITS) + (int) ((value >>> (exponent - SUB_BITS)) & (SUB - 1));
    }

    /**
     * Returns the highest value of bucket {@code index}.
     *
     * @param index a bucket
     * @return its highest value
     */
    static long highestValue(final int index) {
        if (index < 2 * SUB) {
            return index;
        }
        int exponent = (index >> SUB_BITS) + SUB_BITS - 1;
        int shift = exponent - SUB_BITS;
        long lowest = (long) (SUB + (index & (SUB - 1))) << shift;
        return lowest + ((1L << shift) - 1);
    }
}
