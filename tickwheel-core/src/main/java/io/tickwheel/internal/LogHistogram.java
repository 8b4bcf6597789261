package io.tickwheel.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A histogram of nanosecond values in the fixed {@link LogBuckets}, recorded without a lock and
 * read by any thread through {@link #snapshot()}.
 *
 * <h2>Memory ordering</h2>
 * A value is recorded in three steps, in this order: the maximum, the sum, then its bucket. With
 * one writer ({@link #record}) each step is a plain read of the writer's own last value and a
 * release store, which on x86 costs what a plain store does; with several writers
 * ({@link #recordShared}) the maximum is a CAS loop and the sum and bucket are atomic adds. A
 * reader loads every bucket with acquire first and the maximum and sum after them: seeing a
 * bucket's count therefore means seeing the maximum and sum stores made before it, so the copy's
 * maximum and sum cover every value its buckets hold. They may also cover a value whose bucket
 * store the reader missed: the maximum is then capped at the highest value of the highest
 * counted bucket, and the sum is off by at most the values being recorded at that instant. The
 * count is the sum of the copied buckets, so it always agrees with the percentiles, and when no
 * value is being recorded the copy is exact.
 *
 * <p>Threading: {@link #record} by one writer thread at a time (the worker), or
 * {@link #recordShared} by any number of threads, never both on one instance; {@link #snapshot()}
 * by any thread.
 */
public final class LogHistogram {

    private static final VarHandle BUCKETS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle MAX;
    private static final VarHandle SUM;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MAX = lookup.findVarHandle(LogHistogram.class, "max", long.class);
            SUM = lookup.findVarHandle(LogHistogram.class, "sum", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] buckets = new long[LogBuckets.COUNT];
    /** Written with release (or CAS), read with acquire; see the class comment. */
    @SuppressWarnings("unused") // accessed through MAX
    private long max;
    /** Written with release (or atomic add), read with acquire. */
    @SuppressWarnings("unused") // accessed through SUM
    private long sum;

    /**
     * Records a value; only ever from one thread at a time. A negative value counts as 0.
     *
     * @param value nanoseconds
     */
    public void record(final long value) {
        recordEach(value, 1); // inlined, the division by a constant 1 folds away
    }

    /**
     * Records {@code count} values that add up to {@code total}, each as an equal share; only ever
     * from one thread at a time, as {@link #record}. The sum gets the whole total, so a share's
     * rounding never makes the mean drift below what the clock measured.
     *
     * @param total nanoseconds in all; a negative total counts as 0
     * @param count how many values; at least 1
     */
    public void recordEach(final long total, final int count) {
        long v = Math.max(0, total);
        long share = v / count;
        // A store every time instead of a branch: C2 compiles a branch that its profile says is
        // never taken into a trap, and a new maximum (a pause, a slow task: the moment that
        // matters) would then deoptimize the worker's whole inlined fire path and recompile it.
        MAX.setRelease(this, Math.max(share, (long) MAX.getOpaque(this)));
        SUM.setRelease(this, (long) SUM.getOpaque(this) + v);
        int index = LogBuckets.index(share);
        // Release: pairs with the acquire load of each bucket in snapshot().
        BUCKETS.setRelease(buckets, index, (long) BUCKETS.getOpaque(buckets, index) + count);
    }

    /**
     * Records a value from any thread. A negative value counts as 0.
     *
     * @param value nanoseconds
     */
    public void recordShared(final long value) {
        long v = Math.max(0, value);
        long current = (long) MAX.getAcquire(this);
        while (v > current) {
            long witness = (long) MAX.compareAndExchange(this, current, v);
            if (witness == current) {
                break;
            }
            current = witness;
        }
        SUM.getAndAdd(this, v);
        BUCKETS.getAndAdd(buckets, LogBuckets.index(v), 1L);
    }

    /**
     * Copies the histogram; see the class comment for what a copy taken during a record holds.
     *
     * @return the copy
     */
    public HistogramData snapshot() {
        long[] copy = new long[LogBuckets.COUNT];
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
        long maxSeen = Math.min((long) MAX.getAcquire(this), LogBuckets.highestValue(highest));
        return new HistogramData(copy, maxSeen, (long) SUM.getAcquire(this));
    }
}
