package io.tickwheel.bench.workloads;

import java.util.SplittableRandom;

/**
 * Shared pieces of the workloads: the one task instance shared by every timeout of a workload
 * that measures memory (so the task's own size is excluded), delay arrays drawn with a fixed
 * seed, and time constants.
 *
 * <p>Threading: immutable.
 */
public final class Tasks {

    /** One millisecond in nanoseconds. */
    public static final long MS = 1_000_000L;
    /** One second in nanoseconds. */
    public static final long SECOND = 1_000_000_000L;
    /** One hour in nanoseconds. */
    public static final long HOUR = 3600 * SECOND;
    /** The seed of every random choice, so runs are repeatable. */
    public static final long SEED = 0x71C4_3EE1L;

    /** The one task every timeout of a memory-measuring workload shares. */
    public static final Runnable NOOP = () -> { };

    private Tasks() {
    }

    /**
     * Draws delays uniformly from a range.
     *
     * @param n how many
     * @param minNanos the smallest delay
     * @param maxNanos the largest delay
     * @param salt mixed into the seed so that different uses draw different numbers
     * @return the delays, in nanoseconds
     */
    public static long[] uniformDelays(final int n, final long minNanos, final long maxNanos,
            final long salt) {
        SplittableRandom random = new SplittableRandom(SEED ^ salt);
        long[] delays = new long[n];
        for (int i = 0; i < n; i++) {
            delays[i] = random.nextLong(minNanos, maxNanos + 1);
        }
        return delays;
    }
}
