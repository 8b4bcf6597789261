package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerSpec;
import java.util.Locale;

/**
 * W3 accuracy: n timeouts with delays uniform in 1 to 2000 ms, submitted at a fixed rate
 * (100,000 per second) against a plan made in advance. Timeout {@code i} is due at its planned
 * submission time plus its delay, and the delay passed to the timer is that deadline minus the
 * time read just before the call, so a submitter that falls behind does not move the deadlines
 * (no coordinated omission). Reports lateness percentiles (fire time minus deadline), early
 * fires (counted apart, never in the histogram), missing and duplicate fires.
 *
 * <p>Threading: the caller submits; the timer's threads fire into a {@link FireLog}.
 */
public final class AccuracyWorkload implements Workload {

    /** Submissions per second. */
    static final double RATE = 100_000;

    @Override
    public String id() {
        return "W3";
    }

    @Override
    public String name() {
        return "accuracy";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "%,d timeouts, delays uniform 1-2000 ms, submitted at "
                + "%,.0f/s", sizes.accuracyCount(), RATE);
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !spec.isBaseline();
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        warmUp(ctx);
        int n = ctx.sizes().accuracyCount();
        long[] delays = Tasks.uniformDelays(n, Tasks.MS, 2000 * Tasks.MS, 3);
        BenchTimer timer = ctx.newTimer();
        FireLog log = new FireLog(n);
        Object[] tasks = new Object[n];
        for (int i = 0; i < n; i++) {
            tasks[i] = timer.prepare(log.task(i));
        }
        long[] deadlines = new long[n];
        long start = System.nanoTime() + 20 * Tasks.MS;
        Pacer pacer = new Pacer(start, RATE);
        for (int i = 0; i < n; i++) {
            deadlines[i] = pacer.plannedNanos(i) + delays[i];
        }
        HostSteal.Reading steal0 = HostSteal.machine().read();
        long cpu0 = Probes.processCpuNanos();
        for (int i = 0; i < n; i++) {
            long now = pacer.awaitSlot(i);
            timer.schedule(tasks[i], Math.max(0, deadlines[i] - now));
        }
        ctx.progress("submitted %,d (max lag behind plan %.2f ms), waiting for fires", n,
                pacer.maxLagNanos() / 1e6);
        long lastDeadline = pacer.plannedNanos(n - 1) + 2000 * Tasks.MS;
        long grace = Math.max(Tasks.SECOND, 5 * ctx.spec().tickNanos());
        boolean all = log.awaitAll(lastDeadline + grace);
        long cpu1 = Probes.processCpuNanos();
        double stealPct = HostSteal.percent(steal0, HostSteal.machine().read());
        Metrics m = ctx.newMetrics();
        if (!Double.isNaN(stealPct)) {
            m.put(HostSteal.KEY, stealPct); // over the window the lateness was measured in
        }
        log.summarize(m, deadlines);
        m.put("allFired", all ? "yes" : "no");
        m.put("submitMaxLagMs", pacer.maxLagNanos() / 1e6);
        m.put("processCpuMs", (cpu1 - cpu0) / 1e6);
        OwnLateness.put(timer, m);
        timer.stop();
    }

    /** Fires a few thousand short timeouts on a throwaway instance to compile the fire path. */
    private static void warmUp(final RunContext ctx) throws InterruptedException {
        int n = Math.min(10_000, ctx.sizes().accuracyCount());
        BenchTimer warm = ctx.newTimer();
        FireLog log = new FireLog(n);
        long[] delays = Tasks.uniformDelays(n, Tasks.MS, 20 * Tasks.MS, 33);
        for (int i = 0; i < n; i++) {
            warm.schedule(warm.prepare(log.task(i)), delays[i]);
        }
        log.awaitAll(System.nanoTime() + 20 * Tasks.MS + Math.max(Tasks.SECOND,
                3 * ctx.spec().tickNanos()));
        warm.stop();
        ctx.progress("warmed up (%,d of %,d fired)", log.fired(), n);
    }
}
