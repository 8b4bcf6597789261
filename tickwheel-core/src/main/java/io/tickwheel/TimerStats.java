package io.tickwheel;

import io.tickwheel.internal.Checks;
import io.tickwheel.internal.HistogramData;
import io.tickwheel.internal.StatsSnapshot;
import io.tickwheel.internal.StatsSnapshot.Counter;
import java.util.Locale;

/**
 * A snapshot of one timer's statistics, from {@link HashedWheelTimer#stats()} or
 * {@link HierarchicalWheelTimer#stats()}: what was scheduled and how each timeout ended, how
 * often the worker woke, and two histograms: how late timeouts fired, and how long their tasks
 * ran. Counts are totals since the timer was created; {@link #minus(TimerStats)} turns two
 * snapshots into the interval between them.
 *
 * <p>When no call is in flight, {@code scheduled() == expired() + cancelled() + pending()};
 * timeouts returned by {@code stop()} count as cancelled, and so does a {@code newTimeout} that
 * handed its timeout over just as {@code stop()} drained the timer and then threw
 * {@code IllegalStateException} (at most one per thread racing {@code stop()}): counting it is what
 * keeps every count from ever going down. A snapshot taken while other threads
 * schedule and cancel is consistent in the sense that matters: it never shows more timeouts
 * ended than scheduled, and pending is never negative.
 *
 * <pre>{@code
 * TimerStats before = timer.stats();
 * // ... a minute later
 * TimerStats minute = timer.stats().minus(before);
 * long p99 = minute.lateness().valueAtPercentile(99);   // nanoseconds
 * }</pre>
 *
 * <p>Threading: immutable.
 */
public final class TimerStats {

    private final StatsSnapshot snapshot;
    private final Histogram lateness;
    private final Histogram taskTime;

    TimerStats(final StatsSnapshot snapshot) {
        this.snapshot = snapshot;
        this.lateness = new Histogram(snapshot.lateness());
        this.taskTime = new Histogram(snapshot.taskTime());
    }

    /**
     * Returns the timeouts accepted by {@code newTimeout}.
     *
     * @return the count
     */
    public long scheduled() {
        return snapshot.get(Counter.SCHEDULED);
    }

    /**
     * Returns the timeouts whose task was handed to run (whether or not it finished).
     *
     * @return the count
     */
    public long expired() {
        return snapshot.get(Counter.EXPIRED);
    }

    /**
     * Returns the timeouts cancelled, by {@link Timeout#cancel()} or returned by {@code stop()}.
     *
     * @return the count
     */
    public long cancelled() {
        return snapshot.get(Counter.CANCELLED);
    }

    /**
     * Returns the {@code newTimeout} calls refused by the pending limit.
     *
     * @return the count
     */
    public long rejected() {
        return snapshot.get(Counter.REJECTED);
    }

    /**
     * Returns the timeouts scheduled and neither expired nor cancelled when the snapshot was
     * taken (in an interval from {@link #minus}, still the later snapshot's level).
     *
     * @return the count
     */
    public long pending() {
        return snapshot.get(Counter.PENDING);
    }

    /**
     * Returns the tasks that threw.
     *
     * @return the count
     */
    public long taskFailures() {
        return snapshot.get(Counter.TASK_FAILURES);
    }

    /**
     * Returns the expired tasks the task executor refused (each logged at ERROR).
     *
     * @return the count
     */
    public long executorRejections() {
        return snapshot.get(Counter.EXECUTOR_REJECTIONS);
    }

    /**
     * Returns the times the worker thread woke from parking: on its own for a due tick, or woken
     * by a caller. An idle timer does not wake.
     *
     * @return the count
     */
    public long wakeups() {
        return snapshot.get(Counter.WAKEUPS);
    }

    /**
     * Returns the tasks that ran at least the slow-task threshold (each logged at WARNING).
     *
     * @return the count
     */
    public long slowTasks() {
        return snapshot.get(Counter.SLOW_TASKS);
    }

    /**
     * Returns how late timeouts fired: the time the worker ran (or handed over) each task minus
     * its deadline, in nanoseconds.
     *
     * @return the histogram
     */
    public Histogram lateness() {
        return lateness;
    }

    /**
     * Returns how long tasks ran, on the worker thread or on the task executor, in nanoseconds.
     *
     * @return the histogram
     */
    public Histogram taskTime() {
        return taskTime;
    }

    /**
     * Returns what happened between {@code earlier} and this snapshot: counts and histograms
     * are differences, {@link #pending()} is this snapshot's.
     *
     * @param earlier a snapshot of the same timer taken before this one
     * @return the interval
     * @throws IllegalArgumentException if {@code earlier} has a larger count than this snapshot (it was
     *     taken later, or of another timer), which would give negative counts
     */
    public TimerStats minus(final TimerStats earlier) {
        Checks.notNull(earlier, "earlier");
        for (Counter counter : Counter.values()) {
            if (counter != Counter.PENDING && earlier.snapshot.get(counter) > snapshot.get(counter)) {
                String name = counter.name().toLowerCase(Locale.ROOT);
                throw new IllegalArgumentException("earlier: its " + name + " count (" + earlier.snapshot.get(counter)
                        + ") is above this snapshot's (" + snapshot.get(counter)
                        + "): taken after it, or of another timer");
            }
        }
        return new TimerStats(snapshot.minus(earlier.snapshot));
    }

    @Override
    public String toString() {
        return snapshot.toString();
    }

    /**
     * A histogram of nanosecond values in fixed log-scale buckets: every power of two is split
     * into 16 buckets, so a percentile is never below the true value and above it by less than
     * 1/16 of it.
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
         * {@link TimerStats#minus}, the top of the highest bucket that grew (capped by the
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
         * Returns the value at a percentile: the smallest bucket top at or above which that
         * share of the values lie, capped by {@link #max()}.
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
