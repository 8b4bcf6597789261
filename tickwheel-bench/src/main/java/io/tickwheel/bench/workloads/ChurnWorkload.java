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
 * <p>A warm-up of the full op count on another instance comes first, and garbage is collected
 * right before the measured loop, which therefore allocates into heap pages the warm-up already
 * touched (see {@link Probes#collectGarbage()}); the collections and page faults inside the
 * loop are recorded ({@code gcsInLoop}, {@code pageFaultsInLoop}).
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
        BenchTimer warm = ctx.newTimer();
        Object warmTask = warm.prepare(Tasks.NOOP);
        Object[] warmRing = new Object[outstanding];
        Loops.fill(warm, warmTask, warmRing);
        Loops.churnChunked(warm, warmTask, warmRing, ctx.sizes().warmup(ops));
        warm.stop();
        ctx.progress("warmed up");

        BenchTimer timer = ctx.newTimer();
        Object task = timer.prepare(Tasks.NOOP);
        Object[] ring = new Object[outstanding];
        timer.schedule(task, Tasks.HOUR); // starts the worker before the baseline
        Probes.sleepNanos(50 * Tasks.MS);
        long heapBefore;
        long heapAfter;
        long t0;
        long t1;
        long cpu0;
        long cpu1;
        long gcs;
        long faults;
        try {
            heapBefore = Probes.usedHeapAfterGc();
            Loops.fill(timer, task, ring);
            gcs = Probes.gcCount();
            faults = Probes.minorFaults();
            cpu0 = Probes.processCpuNanos();
            t0 = System.nanoTime();
            Loops.churn(timer, task, ring, ops);
            t1 = System.nanoTime();
            cpu1 = Probes.processCpuNanos();
            gcs = Probes.gcCount() - gcs;
            faults = Probes.minorFaults() - faults;
            heapAfter = Probes.usedHeapAfterGc();
        } finally {
            Reference.reachabilityFence(ring);
        }
        Metrics m = ctx.newMetrics();
        m.put("ops", ops);
        m.put("outstanding", outstanding);
        m.put("wallNsPerOp", (double) (t1 - t0) / ops);
        m.put("cpuNsPerOp", (double) (cpu1 - cpu0) / ops);
        m.put("heapRetainedMb", (heapAfter - heapBefore) / 1e6);
        m.put("bytesPerOutstanding", (double) (heapAfter - heapBefore) / outstanding);
        m.put("pending", timer.pending());
        m.put("gcsInLoop", gcs);
        m.put("pageFaultsInLoop", faults);
        timer.stop();
    }
}
