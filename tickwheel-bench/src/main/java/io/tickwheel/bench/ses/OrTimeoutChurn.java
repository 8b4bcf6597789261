package io.tickwheel.bench.ses;

import java.util.concurrent.CompletableFuture;

/**
 * A high rate of futures that mostly complete in time: each operation creates a future, gives
 * it a 10 s timeout, and completes the future created {@code window} operations earlier; one
 * future in a thousand is never completed and is left to time out (after the run). The cost of
 * an operation is creating the timeout and cancelling it on completion. Retained heap is the
 * heap still in use after the loop once the outstanding futures are completed and dropped, over
 * the heap in use before it: an implementation that keeps completed futures' timeouts until
 * their deadline shows it there.
 *
 * <p>Threading: not thread-safe; one thread runs a workload.
 */
final class OrTimeoutChurn {

    /** Gives a future its timeout, the way one implementation does. */
    @FunctionalInterface
    interface Arm {
        /**
         * Arms a 10 s timeout on {@code future}.
         *
         * @param future the future
         * @return {@code future}, as both implementations return it
         */
        CompletableFuture<Object> arm(CompletableFuture<Object> future);
    }

    private static final Object VALUE = new Object();
    private static final int NEVER_COMPLETED_EVERY = 1000;

    private final int ops;
    private final int window;

    /**
     * Creates the workload.
     *
     * @param ops operations to measure
     * @param window futures outstanding at once
     */
    OrTimeoutChurn(final int ops, final int window) {
        this.ops = ops;
        this.window = window;
    }

    /**
     * Runs the workload.
     *
     * @param subject the name to report
     * @param arm how a future gets its timeout
     * @param close releases whatever {@code arm} uses, after the measurement
     * @return the figures
     */
    Measurement run(final String subject, final Arm arm, final Runnable close) {
        try {
            long heapBefore = Probe.settledHeapBytes();
            Probe.Clocks elapsed = churn(arm);
            // Every future the loop made is now complete and unreachable, except the few left to
            // time out: whatever is still in use was kept by the timeouts of completed futures.
            long retained = Probe.settledHeapBytes() - heapBefore;
            return new Measurement("orTimeout", subject, ops, elapsed, retained);
        } finally {
            close.run();
        }
    }

    /** Runs the loop, then completes what is outstanding; returns the loop's time. */
    private Probe.Clocks churn(final Arm arm) {
        @SuppressWarnings("unchecked")
        CompletableFuture<Object>[] ring = (CompletableFuture<Object>[]) new CompletableFuture<?>[window];
        Probe.Clocks start = Probe.Clocks.start();
        for (int i = 0; i < ops; i++) {
            int slot = i % window;
            CompletableFuture<Object> oldest = ring[slot];
            if (oldest != null && (i - window) % NEVER_COMPLETED_EVERY != 0) {
                oldest.complete(VALUE);
            }
            ring[slot] = arm.arm(new CompletableFuture<>());
        }
        Probe.Clocks elapsed = Probe.Clocks.since(start);
        for (CompletableFuture<Object> future : ring) {
            future.complete(VALUE);
        }
        return elapsed;
    }
}
