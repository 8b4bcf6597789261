package io.tickwheel.bench.workloads;

/**
 * How big each workload is in a mode. The full mode uses BENCH.md's figures; the quick mode
 * scales counts down so that every workload and every timer fit in under two minutes. The scale
 * factor multiplies every count (never a duration or a delay, which define the workloads).
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
     * How many operations a warm-up runs before a measured loop of {@code n}: enough for the
     * JIT to compile the loop and the timer's path with C2 (100,000 in the quick mode, a quarter
     * of a million or n/4 in the full one), unless the counts were scaled below a tenth, as in a
     * smoke test.
     *
     * @param n the measured count
     * @return the warm-up count
     */
    public int warmup(final int n) {
        if (scale < 0.1) {
            return n;
        }
        return full ? Math.max(n / 4, 250_000) : 100_000;
    }

    /**
     * W1: how many timeouts one thread schedules.
     *
     * @return the count
     */
    public int scheduleCount() {
        return count(1_000_000, 200_000);
    }

    /**
     * W2: how many schedule-and-cancel operations.
     *
     * @return the count
     */
    public int churnOps() {
        return count(5_000_000, 500_000);
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
        return count(200_000, 20_000);
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
        return count(2_000_000, 200_000);
    }

    /**
     * W6: how many timeouts are due within the one-second window.
     *
     * @return the count
     */
    public int burstCount() {
        return count(1_000_000, 100_000);
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
     * How many measured rounds a short workload (W1, W7's schedule part) repeats, each on a fresh
     * timer, so its median is not one JIT or scheduler hiccup: a million schedules take about
     * 50 ms, and single runs of the same timer differed by 2x.
     *
     * @return 5 in the full run, 3 in the quick one, 1 below a tenth of the scale (smoke tests)
     */
    public int rounds() {
        if (scale < 0.1) {
            return 1;
        }
        return full ? 5 : 3;
    }
}
