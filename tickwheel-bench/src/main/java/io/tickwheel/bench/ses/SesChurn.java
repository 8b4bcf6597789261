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
    private final boolean steady;

    /**
     * Creates the workload with delays of 10 to 60 s, far past the measured seconds.
     *
     * @param ops operations to measure
     * @param outstanding tasks kept scheduled
     * @param seed for the delays, so every subject sees the same ones
     */
    SesChurn(final int ops, final int outstanding, final long seed) {
        this(ops, outstanding, seed, TimeUnit.SECONDS.toNanos(10), false);
    }

    /**
     * Creates the workload with delays from {@code minDelayNanos} to six times that.
     *
     * <p>With delays of 10 to 60 s nothing comes due while it is measured, so an executor that
     * keeps cancelled tasks until their deadline (the JDK's, by default) does its part of a cancel,
     * taking the task off its queue, after the measurement; one that removes cancelled tasks as it
     * goes (the wheel's worker) does it inside. With delays of 10 to 60 ms and a few seconds of
     * operations, both do all their work inside the measurement: the steady state of a service
     * that has run for longer than its longest timeout.
     *
     * @param ops operations to measure
     * @param outstanding tasks kept scheduled
     * @param seed for the delays, so every subject sees the same ones
     * @param minDelayNanos the shortest delay; the longest is six times it
     * @param steady whether to name it as the steady-state variant
     */
    SesChurn(final int ops, final int outstanding, final long seed, final long minDelayNanos, final boolean steady) {
        this.ops = ops;
        this.outstanding = outstanding;
        this.steady = steady;
        SplittableRandom random = new SplittableRandom(seed);
        delaysNanos = new long[4096];
        for (int i = 0; i < delaysNanos.length; i++) {
            delaysNanos[i] = minDelayNanos + random.nextLong(5 * minDelayNanos);
        }
    }

    /**
     * The task body; every task is cancelled about {@code outstanding} operations after it was
     * scheduled, before its delay, so this runs only if the caller stalls for longer than that.
     */
    private static void neverRuns() {
        // nothing: only scheduling and cancelling are measured
    }

    /**
     * Names the workload with its size, e.g. {@code "ses-churn 10k"} or {@code "ses-steady 10k"}.
     *
     * @return the name
     */
    String name() {
        String size = outstanding >= 1_000_000 && outstanding % 1_000_000 == 0
                ? outstanding / 1_000_000 + "M"
                : outstanding / 1000 + "k";
        return steady ? "ses-steady " + size : "ses-churn " + size;
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
            // The steady variant first churns for half as many operations unmeasured, longer than
            // its longest delay, so that cancelled tasks come due inside the measurement from its start.
            int before = steady ? ops / 2 : 0;
            churn(ses, ring, 0, before);
            Probe.Clocks start = Probe.Clocks.start();
            churn(ses, ring, before, before + ops);
            Probe.Clocks elapsed = Probe.Clocks.since(start);
            long retained = Probe.settledHeapBytes() - heapBefore;
            return new Measurement(name(), subject, ops, elapsed, retained);
        } finally {
            Reference.reachabilityFence(ring); // the outstanding tasks count as retained until here
            close.accept(ses);
        }
    }

    /** Operations {@code from} to {@code to}: each cancels the oldest task and schedules one. */
    private void churn(final ScheduledExecutorService ses, final ScheduledFuture<?>[] ring, final int from,
            final int to) {
        int mask = delaysNanos.length - 1;
        for (int i = from; i < to; i++) {
            int slot = i % outstanding;
            ring[slot].cancel(false);
            ring[slot] = ses.schedule(SesChurn::neverRuns, delaysNanos[i & mask], TimeUnit.NANOSECONDS);
        }
    }
}
