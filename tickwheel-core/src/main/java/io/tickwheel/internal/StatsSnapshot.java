package io.tickwheel.internal;

/**
 * One reading of a timer's counters and histograms: the data behind the public
 * {@code TimerStats}, also read by the JFR statistics event.
 *
 * <p>Threading: immutable.
 */
public final class StatsSnapshot {

    /** A timer that has done nothing. */
    public static final StatsSnapshot EMPTY = new StatsSnapshot(new long[Counter.values().length],
            HistogramData.EMPTY, HistogramData.EMPTY);

    /** The counters, in the order they are stored. */
    public enum Counter {
        /** Timeouts accepted by {@code newTimeout}. */
        SCHEDULED(0),
        /** Timeouts whose task was handed to run. */
        EXPIRED(1),
        /** Timeouts cancelled, by {@code cancel()} or returned by {@code stop()}. */
        CANCELLED(2),
        /** {@code newTimeout} calls refused by the pending limit. */
        REJECTED(3),
        /** Scheduled, neither expired nor cancelled (a level, not a count). */
        PENDING(4),
        /** Tasks that threw. */
        TASK_FAILURES(5),
        /** Expired tasks the task executor refused. */
        EXECUTOR_REJECTIONS(6),
        /** Times the worker thread woke from parking. */
        WAKEUPS(7),
        /** Tasks that ran longer than the slow-task threshold. */
        SLOW_TASKS(8);

        /** Where the counter is stored; explicit, so reordering the constants cannot move it. */
        final int slot;

        Counter(final int slot) {
            this.slot = slot;
        }
    }

    private final long[] counters;
    private final HistogramData lateness;
    private final HistogramData taskTime;

    /** Takes ownership of {@code counters}, indexed by {@code Counter.slot}. */
    StatsSnapshot(final long[] counters, final HistogramData lateness, final HistogramData taskTime) {
        this.counters = counters;
        this.lateness = lateness;
        this.taskTime = taskTime;
    }

    /**
     * Returns one counter.
     *
     * @param counter which
     * @return its value
     */
    public long get(final Counter counter) {
        return counters[counter.slot];
    }

    /**
     * Returns the lateness histogram: fire time minus deadline, in nanoseconds.
     *
     * @return the histogram
     */
    public HistogramData lateness() {
        return lateness;
    }

    /**
     * Returns the task-time histogram, in nanoseconds.
     *
     * @return the histogram
     */
    public HistogramData taskTime() {
        return taskTime;
    }

    /**
     * Returns what happened after {@code earlier} was taken. Counts are differences; pending is
     * a level, so it is this snapshot's.
     *
     * @param earlier a snapshot of the same timer taken before this one
     * @return the difference
     */
    public StatsSnapshot minus(final StatsSnapshot earlier) {
        long[] diff = new long[counters.length];
        for (int i = 0; i < diff.length; i++) {
            diff[i] = counters[i] - earlier.counters[i];
        }
        diff[Counter.PENDING.slot] = get(Counter.PENDING);
        return new StatsSnapshot(diff, lateness.minus(earlier.lateness), taskTime.minus(earlier.taskTime));
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(256).append("TimerStats{");
        for (Counter counter : Counter.values()) {
            text.append(counter.name().toLowerCase(java.util.Locale.ROOT)).append('=')
                    .append(counters[counter.slot]).append(", ");
        }
        return text.append("lateness p50/p99/max ns=").append(lateness.valueAtPercentile(50)).append('/')
                .append(lateness.valueAtPercentile(99)).append('/').append(lateness.max())
                .append(", taskTime p50/p99/max ns=").append(taskTime.valueAtPercentile(50)).append('/')
                .append(taskTime.valueAtPercentile(99)).append('/').append(taskTime.max()).append('}').toString();
    }
}
