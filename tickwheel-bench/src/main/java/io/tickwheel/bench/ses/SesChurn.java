package io.tickwheel.bench.ses;

import java.lang.ref.Reference;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The request-timeout pattern through the {@code ScheduledExecutorService} API, which is also
 * the pattern that makes a {@code ScheduledThreadPoolExecutor} leak: {@code outstanding} tasks
 * with long delays (10-60 s, so none fires during the run); each operation cancels the oldest
 * and schedules a new one. The cost of an operation is one {@code schedule} plus one
 * {@code cancel}. Retained heap is read after the loop with the outstanding tasks still
 * scheduled, over the heap in use before the executor was created; an executor that keeps
 * cancelled tasks until their deadline shows it there.
 *
 * <p>Threading: not thread-safe; one thread runs a workload.
 */
final class SesChurn {

    private final int ops;
    private final int outstanding;
    private final long[] delaysNanos;

    /**
     * Creates the workload.
     *
     * @param ops operations to measure
     * @param outstanding tasks kept scheduled
     * @param seed for the delays, so every subject sees the same ones
     */
    SesChurn(final int ops, final int outstanding, final long seed) {
        this.ops = ops;
        this.outstanding = outstanding;
        SplittableRandom random = new SplittableRandom(seed);
        delaysNanos = new long[4096];
        for (int i = 0; i < delaysNanos.length; i++) {
            delaysNanos[i] = TimeUnit.SECONDS.toNanos(10) + random.nextLong(TimeUnit.SECONDS.toNanos(50));
        }
    }

    /** The task body; no task fires during a run, so this is never called in a measurement. */
    private static void neverRuns() {
        // nothing: only scheduling and cancelling are measured
    }

    /**
     * Names the workload with its size, e.g. {@code "ses-churn 10k"}.
     *
     * @return the name
     */
    String name() {
        return outstanding >= 1_000_000 && outstanding % 1_000_000 == 0
                ? "ses-churn " + outstanding / 1_000_000 + "M"
                : "ses-churn " + outstanding / 1000 + "k";
    }

    /**
     * Runs the workload on a fresh executor.
     *
     * @param subject the name to report
     * @param factory creates the executor
     * @param close releases it (and anything behind it) after the measurement
     * @return the figures
     */
    Measurement run(final String subject, final Supplier<ScheduledExecutorService> factory,
            final Consumer<ScheduledExecutorService> close) {
        long heapBefore = Probe.settledHeapBytes();
        ScheduledExecutorService ses = factory.get();
        ScheduledFuture<?>[] ring = new ScheduledFuture<?>[outstanding];
        try {
            int mask = delaysNanos.length - 1;
            for (int i = 0; i < outstanding; i++) {
                ring[i] = ses.schedule(SesChurn::neverRuns, delaysNanos[i & mask], TimeUnit.NANOSECONDS);
            }
            Probe.Clocks start = Probe.Clocks.now();
            for (int i = 0; i < ops; i++) {
                int slot = i % outstanding;
                ring[slot].cancel(false);
                ring[slot] = ses.schedule(SesChurn::neverRuns, delaysNanos[i & mask], TimeUnit.NANOSECONDS);
            }
            Probe.Clocks elapsed = Probe.Clocks.since(start);
            long retained = Probe.settledHeapBytes() - heapBefore;
            return new Measurement(name(), subject, ops, elapsed, retained);
        } finally {
            Reference.reachabilityFence(ring); // the outstanding tasks count as retained until here
            close.accept(ses);
        }
    }
}
