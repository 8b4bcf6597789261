package io.tickwheel.durable;

import io.tickwheel.durable.internal.DurableArgs;
import io.tickwheel.durable.internal.DurableStatsRecorder.Counter;
import io.tickwheel.internal.HistogramData;

/**
 * A snapshot of one {@link DurableTimer}'s statistics, from {@link DurableTimer#stats()}: what this
 * process acknowledged (schedules and cancels), how its handler runs ended, and how long the store
 * took to acknowledge each schedule and cancel. Counts are totals since the timer was built (this
 * process only; a shared store's other processes keep their own); {@link #minus(DurableTimerStats)}
 * turns two snapshots into the interval between them.
 *
 * <p>Every run of a handler that the store let this process {@linkplain TimerStore#claim claim} ends
 * as one of {@link #fired()}, {@link #retried()} or {@link #failed()}, except when the store cannot
 * record the outcome (it is then tried again, and {@link #storeErrors()} counts each failure) or the
 * timer closes first. Counts are exact when no call is in flight; a snapshot taken meanwhile may hold
 * some of the in-flight updates and not others. A {@code schedule} or {@code cancel} that returned
 * before {@code stats()} was called is always counted in it.
 *
 * <pre>{@code
 * DurableTimerStats before = timer.stats();
 * // ... a minute later
 * DurableTimerStats minute = timer.stats().minus(before);
 * long retries = minute.retried();
 * long p99 = minute.scheduleLatency().valueAtPercentile(99);   // nanoseconds
 * }</pre>
 *
 * <p>Threading: immutable.
 */
public final class DurableTimerStats {

    private final long[] counts;
    private final Histogram scheduleLatency;
    private final Histogram cancelLatency;

    /** Takes ownership of {@code counts}, indexed by {@code Counter.slot()}. */
    DurableTimerStats(final long[] counts, final HistogramData scheduleLatency, final HistogramData cancelLatency) {
        this.counts = counts;
        this.scheduleLatency = new Histogram(scheduleLatency);
        this.cancelLatency = new Histogram(cancelLatency);
    }

    /**
     * Returns the schedules the store acknowledged through this timer (replacements included).
     *
     * @return the count
     */
    public long scheduled() {
        return get(Counter.SCHEDULED);
    }

    /**
     * Returns the cancels the store acknowledged through this timer that found the timeout pending
     * (those that returned {@code true}).
     *
     * @return the count
     */
    public long cancelled() {
        return get(Counter.CANCELLED);
    }

    /**
     * Returns the handler runs that returned normally.
     *
     * @return the count
     */
    public long fired() {
        return get(Counter.FIRED);
    }

    /**
     * Returns the handler runs that threw with attempts left, once the store recorded the retry.
     *
     * @return the count
     */
    public long retried() {
        return get(Counter.RETRIED);
    }

    /**
     * Returns the timeouts moved to {@link DurableTimer#failed()} after their last attempt threw,
     * once the store recorded it.
     *
     * @return the count
     */
    public long failed() {
        return get(Counter.FAILED);
    }

    /**
     * Returns the due timeouts whose claim the store refused right before the handler would have
     * run: cancelled or replaced meanwhile, or (in a shared store) owned by another process.
     *
     * @return the count
     */
    public long claimRefused() {
        return get(Counter.CLAIM_REFUSED);
    }

    /**
     * Returns the store calls that failed: {@code schedule} and {@code cancel} (the caller got the
     * error), and recording an outcome ({@code done}, {@code retry}, {@code fail}; tried again every
     * second, and each failure counts).
     *
     * @return the count
     */
    public long storeErrors() {
        return get(Counter.STORE_ERRORS);
    }

    /**
     * Returns how long the store took to acknowledge each schedule: from the call to the moment its
     * future completed (for {@code schedule}, when it returned), in nanoseconds. Failed calls are
     * not in it.
     *
     * @return the histogram
     */
    public Histogram scheduleLatency() {
        return scheduleLatency;
    }

    /**
     * Returns how long the store took to acknowledge each cancel, whether or not it found the
     * timeout pending, in nanoseconds. Failed calls are not in it.
     *
     * @return the histogram
     */
    public Histogram cancelLatency() {
        return cancelLatency;
    }

    /**
     * Returns what happened between {@code earlier} and this snapshot: counts and histograms are
     * differences.
     *
     * @param earlier a snapshot of the same timer taken before this one
     * @return the interval
     * @throws IllegalArgumentException if a count of {@code earlier} is above this one's
     */
    public DurableTimerStats minus(final DurableTimerStats earlier) {
        DurableArgs.notNull(earlier, "earlier");
        long[] diff = new long[counts.length];
        for (int i = 0; i < diff.length; i++) {
            diff[i] = counts[i] - earlier.counts[i];
            if (diff[i] < 0) { // every count only grows
                throw new IllegalArgumentException("earlier: a count (" + earlier.counts[i]
                        + ") is above this snapshot's (" + counts[i] + "): taken after it, or of another timer");
            }
        }
        return new DurableTimerStats(diff, scheduleLatency.data.minus(earlier.scheduleLatency.data),
                cancelLatency.data.minus(earlier.cancelLatency.data));
    }

    private long get(final Counter counter) {
        return counts[counter.slot()];
    }

    @Override
    public String toString() {
        return "DurableTimerStats{scheduled=" + scheduled() + ", cancelled=" + cancelled() + ", fired=" + fired()
                + ", retried=" + retried() + ", failed=" + failed() + ", claimRefused=" + claimRefused()
                + ", storeErrors=" + storeErrors() + ", scheduleLatency=" + scheduleLatency
                + ", cancelLatency=" + cancelLatency + '}';
    }

    /**
     * A histogram of nanosecond values in fixed log-scale buckets, as the core's
     * {@link io.tickwheel.TimerStats.Histogram}: every power of two is split into 16 buckets, so a
     * percentile is never below the true value and above it by less than 1/16 of it.
     *
     * <p>Threading: immutable.
     */
    public static final class Histogram {

        private final HistogramData data;

        Histogram(final HistogramData data) {
            this.data = data;
        }

        /**
         * Returns how many values were recorded.
         *
         * @return the count
         */
        public long count() {
            return data.count();
        }

        /**
         * Returns the largest value recorded, or 0 if none. In an interval from
         * {@link DurableTimerStats#minus}, the top of the highest bucket that grew (capped by the
         * largest value ever recorded).
         *
         * @return nanoseconds
         */
        public long max() {
            return data.max();
        }

        /**
         * Returns the sum of the values recorded, so {@code sum() / count()} is the mean.
         *
         * @return nanoseconds
         */
        public long sum() {
            return data.sum();
        }

        /**
         * Returns the value at a percentile: the top of the bucket in which that share of the values
         * lies, capped by {@link #max()}.
         *
         * @param percentile 0 to 100 (for example 99.9)
         * @return nanoseconds, or 0 if nothing was recorded
         */
        public long valueAtPercentile(final double percentile) {
            return data.valueAtPercentile(percentile);
        }

        @Override
        public String toString() {
            return "Histogram{count=" + count() + ", p50=" + valueAtPercentile(50) + ", p99="
                    + valueAtPercentile(99) + ", max=" + max() + '}';
        }
    }
}
