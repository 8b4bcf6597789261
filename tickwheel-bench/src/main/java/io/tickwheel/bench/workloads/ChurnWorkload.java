package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import java.lang.ref.Reference;
import java.util.Locale;

/**
 * W2 churn, the request-timeout pattern: a ring of outstanding timeouts of 30 s; each operation
 * schedules one and cancels the oldest. Reports wall and process-CPU nanoseconds per operation,
 * and the heap retained right after the run (in use after full collections, minus the same
 * before the ring was filled): it should be the outstanding timeouts only, whatever the number
 * of operations.
 *
 * <p>W1's method (see {@link ScheduleWorkload}): {@link Sizes#warmupRounds()} warm-up rounds of
 * the full op count, then {@link Sizes#rounds()} measured rounds, each on a fresh timer with its
 * ring filled, garbage collected before every round, CPU counted over the churn loop only, the
 * median reported. One warm-up round was not enough: the worker's per-pass code (run once per
 * tens of thousands of operations) was still compiled at C1's profiling tier in the round after
 * it, which cost tickwheel 10-20 CPU ns per op (60-78 in that round, 56-62 from the next on, in
 * a harness of separate thread times). The collections and page faults inside the measured
 * loops are recorded ({@code gcsInLoops}, {@code pageFaultsPerRound}); the retained heap is
 * measured around the first measured round.
 *
 * <p>Threading: runs on the caller's thread.
 */
public final class ChurnWorkload implements Workload {

    @Override
    public String id() {
        return "W2";
    }

    @Override
    public String name() {
        return "churn";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "%,d outstanding, 30 s delay, %,d x (schedule one, "
                + "cancel the oldest)", sizes.churnOutstanding(), sizes.churnOps());
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !TimerCatalog.IDLE_JVM.equals(spec.id());
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        int ops = ctx.sizes().churnOps();
        int outstanding = ctx.sizes().churnOutstanding();
        ScheduleWorkload.RoundStats stats = new ScheduleWorkload.RoundStats();
        for (int i = 0; i < ctx.sizes().warmupRounds(); i++) {
            Round r = round(ctx, ops, outstanding, true, false, stats);
            ctx.progress("warm-up %d: %.1f wall, %.1f CPU ns/op", i + 1, r.wallNsPerOp(), r.cpuNsPerOp());
        }
        stats.reset();
        int rounds = ctx.sizes().rounds();
        double[] wall = new double[rounds];
        double[] cpu = new double[rounds];
        Round first = null;
        for (int i = 0; i < rounds; i++) {
            Round r = round(ctx, ops, outstanding, false, i == 0, stats);
            if (i == 0) {
                first = r;
            }
            wall[i] = r.wallNsPerOp();
            cpu[i] = r.cpuNsPerOp();
            ctx.progress("round %d of %d: %.1f wall, %.1f CPU ns/op", i + 1, rounds, wall[i], cpu[i]);
        }
        Metrics m = ctx.newMetrics();
        m.put("ops", ops);
        m.put("outstanding", outstanding);
        m.put("warmupRounds", ctx.sizes().warmupRounds());
        m.put("rounds", rounds);
        m.put("wallNsPerOp", ScheduleWorkload.median(wall));
        m.put("cpuNsPerOp", ScheduleWorkload.median(cpu));
        ScheduleWorkload.putSpread(m, "wallNsPerOp", wall);
        ScheduleWorkload.putSpread(m, "cpuNsPerOp", cpu);
        m.put("heapRetainedMb", first.heapRetainedBytes() / 1e6);
        m.put("bytesPerOutstanding", (double) first.heapRetainedBytes() / outstanding);
        m.put("pending", first.pending());
        stats.put(m);
    }

    /**
     * One round on a fresh timer, its worker started before the baseline: fill the ring, then
     * {@code ops} churn operations. A warm-up round churns in chunks, so that the loop is compiled
     * as a method before a measured round calls it once.
     */
    private static Round round(final RunContext ctx, final int ops, final int outstanding,
            final boolean warmUp, final boolean measureHeap, final ScheduleWorkload.RoundStats stats)
            throws InterruptedException {
        Probes.collectGarbage();
        BenchTimer timer = ctx.newTimer();
        Object task = timer.prepare(Tasks.NOOP);
        Object[] ring = new Object[outstanding];
        try {
            timer.schedule(task, Tasks.HOUR); // starts the worker before the baseline
            Probes.sleepNanos(50 * Tasks.MS);
            long heapBefore = measureHeap ? Probes.usedHeapAfterGc() : 0;
            Loops.fill(timer, task, ring);
            Probes.awaitQuietCompiler();
            double interCore = InterCore.roundTripNanos(InterCore.TRIPS);
            long gcs0 = Probes.gcCount();
            long faults0 = Probes.minorFaults();
            long jit0 = Probes.compilerCpuNanos();
            long cpu0 = Probes.processCpuNanos();
            long t0 = System.nanoTime();
            if (warmUp) {
                Loops.churnChunked(timer, task, ring, ops);
            } else {
                Loops.churn(timer, task, ring, ops);
            }
            long t1 = System.nanoTime();
            long cpu1 = Probes.processCpuNanos();
            stats.add(Probes.gcCount() - gcs0, Probes.minorFaults() - faults0,
                    (double) (Probes.compilerCpuNanos() - jit0) / ops);
            stats.interCore(interCore);
            ctx.progress("  inter-core round trip just before the loop %.0f ns", interCore);
            long heapRetained = measureHeap ? Probes.usedHeapAfterGc() - heapBefore : 0;
            return new Round((double) (t1 - t0) / ops, (double) (cpu1 - cpu0) / ops, heapRetained,
                    timer.pending());
        } finally {
            Reference.reachabilityFence(ring);
            Reference.reachabilityFence(task);
            timer.stop();
        }
    }

    /** What one round measured; the retained heap only where the round was asked to measure it. */
    private record Round(double wallNsPerOp, double cpuNsPerOp, long heapRetainedBytes, long pending) {
    }
}
