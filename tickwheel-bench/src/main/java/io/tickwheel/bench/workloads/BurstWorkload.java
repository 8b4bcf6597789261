package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerSpec;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * W6 burst: n timeouts due within one one-second window that starts once they are all
 * scheduled. Reports fires per second (fires over the time from the window's start to the last
 * fire), process CPU per fire over that same time, and the last fire minus the last deadline.
 * Every timeout shares one task, which stamps the fire and counts it; the last one opens a latch
 * the caller waits on, so the caller burns no CPU while it waits.
 *
 * <p>Threading: the caller schedules; the timer's threads fire into two atomics and a latch.
 */
public final class BurstWorkload implements Workload {

    @Override
    public String id() {
        return "W6";
    }

    @Override
    public String name() {
        return "burst";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "%,d timeouts due within one 1 s window",
                sizes.burstCount());
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !spec.isBaseline();
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        int n = ctx.sizes().burstCount();
        long tick = ctx.spec().tickNanos();
        // The warm-up has the measured burst's shape (same lead and window, so the same wheel
        // levels and cascades), a fifth of its size: a smaller, shorter one left the cascade paths
        // cold, and their JIT compilation, on the compiler's threads, was charged to the measured
        // fires (tickwheel-hier: about 130 of 360 CPU ns per fire, Netty about 50 of 370).
        burst(ctx, Math.max(1, n / 5), Tasks.SECOND, null);
        ctx.progress("warmed up");
        long[] offsets = Tasks.uniformDelays(n, 0, Tasks.SECOND, 6);
        burst(ctx, n, Tasks.SECOND, offsets);
        if (tick > 0) {
            ctx.newMetrics().put("tickMs", tick / 1e6);
        }
    }

    private static void burst(final RunContext ctx, final int n, final long window,
            final long[] given) throws InterruptedException {
        long[] offsets = given == null ? Tasks.uniformDelays(n, 0, window, 66) : given;
        long lastOffset = 0;
        for (long o : offsets) {
            lastOffset = Math.max(lastOffset, o);
        }
        BenchTimer timer = ctx.newTimer();
        AtomicLong fired = new AtomicLong();
        AtomicLong lastFire = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        Object task = timer.prepare(() -> {
            lastFire.set(System.nanoTime());
            if (fired.incrementAndGet() == n) {
                done.countDown();
            }
        });
        long lead = 100 * Tasks.MS + n * 1500L; // scheduling fits before
        long cpuStart = Probes.processCpuNanos();
        long windowStart = System.nanoTime() + lead;
        for (int i = 0; i < n; i++) {
            timer.schedule(task, windowStart + offsets[i] - System.nanoTime());
        }
        long scheduled = System.nanoTime();
        long cpuScheduled = Probes.processCpuNanos();
        Probes.sleepNanos(windowStart - scheduled);
        long cpu0 = Probes.processCpuNanos();
        long giveUp = windowStart + window + Math.max(5 * Tasks.SECOND,
                3 * ctx.spec().tickNanos());
        boolean all = done.await(giveUp - System.nanoTime(), TimeUnit.NANOSECONDS);
        long cpu1 = Probes.processCpuNanos();
        long count = fired.get();
        long last = lastFire.get();
        timer.stop();
        if (given == null) {
            return;
        }
        Metrics m = ctx.newMetrics();
        m.put("count", n);
        m.put("fired", count);
        m.put("missing", n - count);
        m.put("allFired", all ? "yes" : "no");
        m.put("scheduledBeforeWindow", scheduled <= windowStart ? "yes" : "no");
        m.put("firesPerSec", count / ((last - windowStart) / 1e9));
        m.put("cpuNsPerFire", (double) (cpu1 - cpu0) / Math.max(1, count));
        m.put("scheduleCpuNsPerOp", (double) (cpuScheduled - cpuStart) / n);
        m.put("lastFireMinusLastDeadlineMs", (last - (windowStart + lastOffset)) / 1e6);
    }
}
