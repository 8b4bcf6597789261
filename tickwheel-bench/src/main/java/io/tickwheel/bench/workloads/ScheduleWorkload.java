package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.Locale;

/**
 * W1 schedule: one thread schedules n timeouts with delays of 10 to 60 s (none fire). Reports
 * wall and process-CPU nanoseconds per schedule, and the heap retained per pending timeout
 * (the heap in use after full collections with every timeout pending, minus the same before,
 * over n; every timeout shares one task, so the task's size is excluded).
 *
 * <p>CPU is the process's over the scheduling loop, so the timer thread's share of the work
 * done meanwhile counts. A warm-up on a separate instance of the same timer runs first; then
 * {@link Sizes#rounds()} measured rounds, each on a fresh timer, report their median (the
 * retained heap is measured in the first, as before it no stopped timer's garbage is about).
 *
 * <p>Threading: runs on the caller's thread.
 */
public final class ScheduleWorkload implements Workload {

    @Override
    public String id() {
        return "W1";
    }

    @Override
    public String name() {
        return "schedule";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "1 thread schedules %,d timeouts, delays 10-60 s "
                + "(none fire)", sizes.scheduleCount());
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !TimerCatalog.IDLE_JVM.equals(spec.id());
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        int n = ctx.sizes().scheduleCount();
        int warmup = ctx.sizes().warmup(n);
        long[] delays = Tasks.uniformDelays(Math.max(n, warmup), 10 * Tasks.SECOND,
                60 * Tasks.SECOND, 1);
        BenchTimer warm = ctx.newTimer();
        Loops.scheduleChunked(warm, warm.prepare(Tasks.NOOP), delays, warmup);
        warm.stop();
        ctx.progress("warmed up");

        int rounds = ctx.sizes().rounds();
        double[] wall = new double[rounds];
        double[] cpu = new double[rounds];
        double bytesPerTimeout = 0;
        long pending = 0;
        for (int round = 0; round < rounds; round++) {
            boolean first = round == 0;
            BenchTimer timer = ctx.newTimer();
            Object task = timer.prepare(Tasks.NOOP);
            timer.schedule(task, Tasks.HOUR); // starts the worker before the baseline
            Probes.sleepNanos(50 * Tasks.MS);
            try {
                long heapBefore = first ? Probes.usedHeapAfterGc() : 0;
                long cpu0 = Probes.processCpuNanos();
                long t0 = System.nanoTime();
                Loops.scheduleAll(timer, task, delays, 0, n);
                long t1 = System.nanoTime();
                long cpu1 = Probes.processCpuNanos();
                wall[round] = (double) (t1 - t0) / n;
                cpu[round] = (double) (cpu1 - cpu0) / n;
                if (first) {
                    Probes.sleepNanos(ctx.sizes().settleNanos(ctx.spec().tickNanos(), n));
                    bytesPerTimeout = (double) (Probes.usedHeapAfterGc() - heapBefore) / n;
                    pending = timer.pending();
                }
            } finally {
                Reference.reachabilityFence(delays);
                Reference.reachabilityFence(task);
            }
            timer.stop();
            ctx.progress("round %d of %d: %.1f wall, %.1f CPU ns/op", round + 1, rounds, wall[round], cpu[round]);
        }
        Metrics m = ctx.newMetrics();
        m.put("count", n);
        m.put("rounds", rounds);
        m.put("wallNsPerOp", median(wall));
        m.put("cpuNsPerOp", median(cpu));
        m.put("bytesPerTimeout", bytesPerTimeout);
        m.put("pending", pending);
    }

    /** The median, or the upper middle of an even count. */
    static double median(final double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
