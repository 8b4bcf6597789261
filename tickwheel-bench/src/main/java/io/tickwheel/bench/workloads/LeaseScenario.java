package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerSpec;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * Scenario {@code lease}: lock-lease renewal at a fixed period, the way Redisson's watchdog
 * does it: each lease's renewal task, when it fires, renews and arms the next renewal one period
 * later, from the timer's own thread. Leases start staggered over one period. Reports renewals
 * per second, lateness of each renewal, CPU and heap per lease.
 *
 * <p>Threading: the caller arms the first renewals; the timer's threads re-arm.
 */
public final class LeaseScenario implements Workload {

    @Override
    public String id() {
        return "lease";
    }

    @Override
    public String name() {
        return "lock-lease renewal";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "%,d leases renewed every %d ms from the timer thread, "
                + "%d s", leases(sizes), period(sizes) / Tasks.MS, duration(sizes) / Tasks.SECOND);
    }

    private static int leases(final Sizes sizes) {
        return sizes.count(100_000, 20_000);
    }

    private static long period(final Sizes sizes) {
        return sizes.nanos(Tasks.SECOND, 500 * Tasks.MS);
    }

    private static long duration(final Sizes sizes) {
        return sizes.nanos(8 * Tasks.SECOND, 2 * Tasks.SECOND);
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !spec.isBaseline();
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        int leases = leases(ctx.sizes());
        long period = period(ctx.sizes());
        // A warm-up round on its own timer, as long as the measured one: without it the JIT's
        // compilation (about half a second of CPU for tickwheel, less for Netty's smaller loop)
        // fell inside the measured window and was charged to the renewals. It has to be long:
        // the worker's per-tick methods run about once a millisecond, so they reach C2 only some
        // 8 s into the JVM (-XX:+PrintCompilation), and ran as profiled C1 code until then.
        renew(ctx, leases, period, duration(ctx.sizes()), false);
        ctx.progress("warmed up");
        renew(ctx, leases, period, duration(ctx.sizes()), true);
    }

    private static void renew(final RunContext ctx, final int leases, final long period, final long duration,
            final boolean report) throws InterruptedException {
        BenchTimer timer = ctx.newTimer();
        Renewals renewals = new Renewals(timer, period);
        timer.schedule(timer.prepare(Tasks.NOOP), Tasks.HOUR);
        // Twice: what the warm-up round left (a stopped timer's wheel) can take a second collection.
        Probes.usedHeapAfterGc();
        long heapBefore = Probes.usedHeapAfterGc();
        long start = System.nanoTime() + ctx.sizes().nanos(Tasks.SECOND, 300 * Tasks.MS);
        for (int i = 0; i < leases; i++) {
            renewals.arm(start + period * i / leases);
        }
        long heapArmed = Probes.usedHeapAfterGc();
        Probes.sleepNanos(start - System.nanoTime());
        Window window = Window.open();
        Probes.sleepNanos(duration);
        renewals.running = false;
        window.close();
        long done = renewals.count.sum();
        timer.stop();
        if (!report) {
            return;
        }
        Metrics m = ctx.newMetrics();
        window.put(m, "renewals", done);
        m.put("leases", leases);
        m.put("targetPerSec", leases * 1e9 / period);
        m.put("bytesPerLease", (double) (heapArmed - heapBefore) / leases);
        m.put("heapRetainedMb", (heapArmed - heapBefore) / 1e6);
        renewals.lateness.summarize(m);
    }

    /** The renewal loop shared by every lease. */
    private static final class Renewals {
        final BenchTimer timer;
        final long period;
        final LiveLateness lateness = new LiveLateness();
        final LongAdder count = new LongAdder();
        /** Written by the caller at the end, read by the firing threads. */
        volatile boolean running = true;

        Renewals(final BenchTimer timer, final long period) {
            this.timer = timer;
            this.period = period;
        }

        void arm(final long deadlineNanos) {
            timer.schedule(timer.prepare(() -> renew(deadlineNanos)),
                    deadlineNanos - System.nanoTime());
        }

        private void renew(final long deadlineNanos) {
            lateness.fired(deadlineNanos);
            count.increment();
            if (running) {
                arm(System.nanoTime() + period);
            }
        }
    }
}
