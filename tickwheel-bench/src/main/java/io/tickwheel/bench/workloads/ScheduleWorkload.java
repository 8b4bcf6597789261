package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import java.lang.ref.Reference;
import java.util.Locale;

/**
 * W1 schedule: one thread schedules n timeouts with delays of 10 to 60 s (none fire). Reports
 * wall and process-CPU nanoseconds per schedule, and the heap retained per pending timeout
 * (the heap in use after full collections with every timeout pending, minus the same before,
 * over n; every timeout shares one task, so the task's size is excluded).
 *
 * <p>CPU is the process's over the scheduling loop, so the timer thread's share of the work
 * done meanwhile counts. A warm-up on a separate instance of the same timer runs first.
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

        BenchTimer timer = ctx.newTimer();
        Object task = timer.prepare(Tasks.NOOP);
        timer.schedule(task, Tasks.HOUR); // starts the worker before the baseline
        Probes.sleepNanos(50 * Tasks.MS);
        long heapBefore;
        long heapAfter;
        long t0;
        long t1;
        long cpu0;
        long cpu1;
        try {
            heapBefore = Probes.usedHeapAfterGc();
            cpu0 = Probes.processCpuNanos();
            t0 = System.nanoTime();
            Loops.scheduleAll(timer, task, delays, 0, n);
            t1 = System.nanoTime();
            cpu1 = Probes.processCpuNanos();
            Probes.sleepNanos(ctx.sizes().settleNanos(ctx.spec().tickNanos(), n));
            heapAfter = Probes.usedHeapAfterGc();
        } finally {
            Reference.reachabilityFence(delays);
            Reference.reachabilityFence(task);
        }
        Metrics m = ctx.newMetrics();
        m.put("count", n);
        m.put("wallNsPerOp", (double) (t1 - t0) / n);
        m.put("cpuNsPerOp", (double) (cpu1 - cpu0) / n);
        m.put("bytesPerTimeout", (double) (heapAfter - heapBefore) / n);
        m.put("pending", timer.pending());
        timer.stop();
    }
}
