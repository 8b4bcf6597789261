package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;

/**
 * The measured inner loops, kept in small methods of their own so that the warm-up and the
 * measured run execute the same compiled code.
 *
 * <p>Threading: stateless; each call is confined to its caller's thread.
 */
final class Loops {

    /** W2's delay: 30 s, so nothing fires during the run. */
    static final long CHURN_DELAY_NANOS = 30 * Tasks.SECOND;

    private Loops() {
    }

    /** Schedules {@code task} once per delay in {@code [from, to)}. */
    static void scheduleAll(final BenchTimer timer, final Object task, final long[] delays,
            final int from, final int to) {
        for (int i = from; i < to; i++) {
            timer.schedule(task, delays[i]);
        }
    }

    /** Schedules {@code task} once per delay, in chunks so the loop compiles as a method. */
    static void scheduleChunked(final BenchTimer timer, final Object task, final long[] delays,
            final int count) {
        int chunk = Math.max(1, count / 20);
        for (int from = 0; from < count; from += chunk) {
            scheduleAll(timer, task, delays, from, Math.min(count, from + chunk));
        }
    }

    /** Fills the ring with timeouts of W2's delay. */
    static void fill(final BenchTimer timer, final Object task, final Object[] ring) {
        for (int i = 0; i < ring.length; i++) {
            ring[i] = timer.schedule(task, CHURN_DELAY_NANOS);
        }
    }

    /**
     * W2's operation, {@code ops} times: schedule one timeout, cancel the oldest outstanding one
     * and put the new one in its place.
     */
    static void churn(final BenchTimer timer, final Object task, final Object[] ring,
            final int ops) {
        int slot = 0;
        for (int i = 0; i < ops; i++) {
            Object fresh = timer.schedule(task, CHURN_DELAY_NANOS);
            timer.cancel(ring[slot]);
            ring[slot] = fresh;
            slot++;
            if (slot == ring.length) {
                slot = 0;
            }
        }
    }

    /** Churns in chunks so the loop compiles as a method. */
    static void churnChunked(final BenchTimer timer, final Object task, final Object[] ring,
            final int ops) {
        int chunk = Math.max(1, ops / 20);
        for (int done = 0; done < ops; done += chunk) {
            churn(timer, task, ring, Math.min(chunk, ops - done));
        }
    }
}
