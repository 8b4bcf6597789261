package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import java.util.Locale;
import java.util.Map;

/**
 * W4 idle: one timeout an hour out, then a window of idling. Reports the timer threads' CPU and
 * the process's CPU per idle second. The simulator runs the same window in an empty JVM
 * ({@link TimerCatalog#IDLE_JVM}) and subtracts its process CPU.
 *
 * <p>Threading: runs on the caller's thread, which sleeps through the window.
 */
public final class IdleWorkload implements Workload {

    @Override
    public String id() {
        return "W4";
    }

    @Override
    public String name() {
        return "idle";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "one timeout 1 h out, %d s of idling",
                sizes.idleNanos() / Tasks.SECOND);
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !TimerCatalog.FLOOR.equals(spec.id());
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        BenchTimer timer = ctx.newTimer();
        timer.schedule(timer.prepare(Tasks.NOOP), Tasks.HOUR);
        Probes.sleepNanos(ctx.sizes().nanos(Tasks.SECOND, 200 * Tasks.MS));
        measureWindow(ctx, timer);
        timer.stop();
    }

    /**
     * Collects garbage, then measures CPU over one idle window; shared with W5.
     *
     * @param ctx the run
     * @param timer the timer holding its timeouts
     * @throws InterruptedException if interrupted
     */
    static void measureWindow(final RunContext ctx, final BenchTimer timer)
            throws InterruptedException {
        Probes.usedHeapAfterGc();
        long window = ctx.sizes().idleNanos();
        Map<Long, Long> threads0 = Probes.timerThreadCpu();
        long cpu0 = Probes.processCpuNanos();
        long t0 = System.nanoTime();
        Probes.sleepNanos(window);
        long t1 = System.nanoTime();
        long cpu1 = Probes.processCpuNanos();
        long threadCpu = Probes.timerThreadCpuSince(threads0);
        double seconds = (t1 - t0) / 1e9;
        Metrics m = ctx.newMetrics();
        m.put("windowSeconds", seconds);
        m.put("timerThreadCpuMsPerSec", threadCpu / 1e6 / seconds);
        m.put("processCpuMsPerSec", (cpu1 - cpu0) / 1e6 / seconds);
        m.put("pending", timer.pending());
        ctx.progress("timer threads %.3f ms/s, process %.3f ms/s", threadCpu / 1e6 / seconds,
                (cpu1 - cpu0) / 1e6 / seconds);
    }
}
