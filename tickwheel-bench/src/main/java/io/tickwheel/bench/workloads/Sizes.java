package io.tickwheel.bench.workloads;

/**
 * How big each workload is in a mode. The full mode uses BENCH.md's figures. The quick mode runs
 * fewer cells (see the simulator's options), not smaller ones: every workload keeps its full
 * counts, because at a tenth of them the JIT and fixed costs did not wash out and the ratios
 * came out the opposite of the full run's; only W4's and W5's idle windows (1 s instead of 10)
 * and the scenarios are shortened, where the figure is a rate over the window. The scale factor
 * multiplies every count (never a duration or a delay, which define the workloads).
 *
 * <p>Threading: immutable.
 *
 * @param full true for the full run, false for the quick one
 * @param scale a factor applied to every count
 */
public record Sizes(boolean full, double scale) {

    private static final long SECOND = 1_000_000_000L;

    /**
     * Scales a count.
     *
     * @param fullCount the count of the full run
     * @param quickCount the count of the quick run
     * @return the count for this mode and scale, at least 1
     */
    public int count(final int fullCount, final int quickCount) {
        return (int) Math.max(1, Math.round((full ? fullCount : quickCount) * scale));
    }

    /**
     * Picks a duration (never scaled).
     *
     * @param fullNanos the duration of the full run
     * @param quickNanos the duration of the quick run
     * @return the duration for this mode
     */
    public long nanos(final long fullNanos, final long quickNanos) {
        return full ? fullNanos : quickNanos;
    }

    /**
     * W1: how many timeouts one thread schedules.
     *
     * @return the count
     */
    public int scheduleCount() {
        return count(1_000_000, 1_000_000);
    }

    /**
     * W2: how many schedule-and-cancel operations.
     *
     * @return the count
     */
    public int churnOps() {
        return count(5_000_000, 5_000_000);
    }

    /**
     * W2: how many timeouts stay outstanding.
     *
     * @return the count
     */
    public int churnOutstanding() {
        return Math.min(count(10_000, 10_000), churnOps());
    }

    /**
     * W3: how many timeouts.
     *
     * @return the count
     */
    public int accuracyCount() {
        return count(200_000, 200_000);
    }

    /**
     * W4 and W5: how long the measured idle window lasts.
     *
     * @return nanoseconds
     */
    public long idleNanos() {
        return nanos(10 * SECOND, SECOND);
    }

    /**
     * W5: how many far-future timeouts.
     *
     * @return the count
     */
    public int farCount() {
        return count(2_000_000, 2_000_000);
    }

    /**
     * W6: how many timeouts are due within the one-second window.
     *
     * @return the count
     */
    public int burstCount() {
        return count(1_000_000, 1_000_000);
    }

    /**
     * How long to let a timer absorb a batch of {@code count} timeouts before a measurement:
     * a base, or enough ticks to move them at Netty's 100k-per-tick transfer cap.
     *
     * @param tickNanos the timer's tick, or 0 for none
     * @param count how many timeouts were just scheduled
     * @return nanoseconds
     */
    public long settleNanos(final long tickNanos, final int count) {
        long base = nanos(SECOND / 2, SECOND / 10);
        return Math.max(base, (count / 100_000 + 3) * tickNanos);
    }

    /**
     * How many measured rounds a workload of rounds (W1, W2, W6, W7) repeats, each on a fresh timer, so its
     * median is not one JIT or scheduler hiccup: a million schedules take about 40 ms, and
     * single rounds of the same timer differ by up to 2 x.
     *
     * @return 5 (BENCH.md), 1 below a tenth of the scale (smoke tests)
     */
    public int rounds() {
        return scale < 0.1 ? 1 : 5;
    }

    /**
     * How many unmeasured rounds of the full count a workload of rounds (W1, W2, W6, W7) runs first, each
     * on a fresh timer: BENCH.md asks for at least two, and measured rounds of tickwheel still
     * spent 20 ns per schedule in the JIT compiler after one.
     *
     * @return 2, or 1 below a tenth of the scale (smoke tests)
     */
    public int warmupRounds() {
        return scale < 0.1 ? 1 : 2;
    }
}
