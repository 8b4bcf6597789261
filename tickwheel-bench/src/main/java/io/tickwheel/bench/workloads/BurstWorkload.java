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
 * <p>W1's method (see {@link ScheduleWorkload}): {@link Sizes#warmupRounds()} unmeasured bursts
 * of the full count and shape, then {@link Sizes#rounds()} measured ones, each on a fresh timer
 * after a collection, the median reported with its range. A single burst after a warm-up of a
 * fifth of the size measured the JIT as much as the timer: the worker's fire path was still being
 * compiled inside the measured window (tickwheel's expiry and timing methods reached C2 there,
 * with {@code -XX:+PrintCompilation}), and single runs of one jar spread by 15 to 25 %. The window
 * opens 100 ms plus twice the previous burst's scheduling time after the scheduling starts, so a
 * round takes about 1.5 s instead of 2.7.
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
        long[] offsets = Tasks.uniformDelays(n, 0, Tasks.SECOND, 6);
        // Enough for any peer's first million schedules; later rounds use what the previous took.
        long lead = 100 * Tasks.MS + n * 1500L;
        for (int i = 0; i < ctx.sizes().warmupRounds(); i++) {
            Burst b = burst(ctx, offsets, lead);
            lead = nextLead(b);
            ctx.progress("warm-up %d: %.1f CPU ns/fire", i + 1, b.cpuNsPerFire());
        }
        int rounds = ctx.sizes().rounds();
        double[] cpu = new double[rounds];
        double[] rate = new double[rounds];
        double[] last = new double[rounds];
        double[] scheduleCpu = new double[rounds];
        long fired = 0;
        boolean allFired = true;
        boolean allBeforeWindow = true;
        HostSteal.Reading steal0 = HostSteal.machine().read();
        for (int i = 0; i < rounds; i++) {
            Burst b = burst(ctx, offsets, lead);
            lead = nextLead(b);
            cpu[i] = b.cpuNsPerFire();
            rate[i] = b.firesPerSec();
            last[i] = b.lastFireMinusLastDeadlineMs();
            scheduleCpu[i] = b.scheduleCpuNsPerOp();
            fired += b.fired();
            allFired &= b.allFired();
            allBeforeWindow &= b.scheduledBeforeWindow();
            ctx.progress("round %d of %d: %.1f CPU ns/fire, last fire %+.2f ms", i + 1, rounds, cpu[i],
                    last[i]);
        }
        double stealPct = HostSteal.percent(steal0, HostSteal.machine().read());
        Metrics m = ctx.newMetrics();
        if (!Double.isNaN(stealPct)) {
            m.put(HostSteal.KEY, stealPct); // over the measured rounds, where the last fire is measured
        }
        m.put("count", n);
        m.put("warmupRounds", ctx.sizes().warmupRounds());
        m.put("rounds", rounds);
        m.put("fired", fired / rounds);
        m.put("missing", (long) n * rounds - fired);
        m.put("allFired", allFired ? "yes" : "no");
        m.put("scheduledBeforeWindow", allBeforeWindow ? "yes" : "no");
        m.put("firesPerSec", ScheduleWorkload.median(rate));
        m.put("cpuNsPerFire", ScheduleWorkload.median(cpu));
        ScheduleWorkload.putSpread(m, "cpuNsPerFire", cpu);
        m.put("scheduleCpuNsPerOp", ScheduleWorkload.median(scheduleCpu));
        m.put("lastFireMinusLastDeadlineMs", ScheduleWorkload.median(last));
        ScheduleWorkload.putSpread(m, "lastFireMinusLastDeadlineMs", last);
        if (tick > 0) {
            m.put("tickMs", tick / 1e6);
        }
    }

    /** Twice what the previous round's schedules took, and 100 ms: the window waits for no one. */
    private static long nextLead(final Burst previous) {
        return 100 * Tasks.MS + 2 * previous.scheduleNanos();
    }

    /**
     * One burst on a fresh timer, garbage collected before it: schedule every timeout, sleep until
     * the window opens, then wait for the last fire.
     */
    private static Burst burst(final RunContext ctx, final long[] offsets, final long lead)
            throws InterruptedException {
        int n = offsets.length;
        long lastOffset = 0;
        for (long o : offsets) {
            lastOffset = Math.max(lastOffset, o);
        }
        Probes.collectGarbage();
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
        try {
            long cpuStart = Probes.processCpuNanos();
            long start = System.nanoTime();
            long windowStart = start + lead;
            for (int i = 0; i < n; i++) {
                timer.schedule(task, windowStart + offsets[i] - System.nanoTime());
            }
            long scheduled = System.nanoTime();
            long cpuScheduled = Probes.processCpuNanos();
            Probes.sleepNanos(windowStart - scheduled);
            long cpu0 = Probes.processCpuNanos();
            long giveUp = windowStart + Tasks.SECOND + Math.max(5 * Tasks.SECOND, 3 * ctx.spec().tickNanos());
            boolean all = done.await(giveUp - System.nanoTime(), TimeUnit.NANOSECONDS);
            long cpu1 = Probes.processCpuNanos();
            long count = fired.get();
            long last = lastFire.get();
            return new Burst(count, all, scheduled <= windowStart, scheduled - start,
                    count / ((last - windowStart) / 1e9), (double) (cpu1 - cpu0) / Math.max(1, count),
                    (double) (cpuScheduled - cpuStart) / n, (last - (windowStart + lastOffset)) / 1e6);
        } finally {
            timer.stop();
        }
    }

    /** What one burst measured. */
    private record Burst(long fired, boolean allFired, boolean scheduledBeforeWindow, long scheduleNanos,
            double firesPerSec, double cpuNsPerFire, double scheduleCpuNsPerOp,
            double lastFireMinusLastDeadlineMs) {
    }
}
