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
        long duration = duration(ctx.sizes());
        BenchTimer timer = ctx.newTimer();
        Renewals renewals = new Renewals(timer, period);
        timer.schedule(timer.prepare(Tasks.NOOP), Tasks.HOUR);
        Probes.usedHeapAfterGc();
        long heapBefore = Probes.usedHeapAfterGc();
        long start = System.nanoTime() + ctx.sizes().nanos(Tasks.SECOND, 300 * Tasks.MS);
        for (int i = 0; i < leases; i++) {
            renewals.arm(start + period * i / leases);
        }
        long heapArmed = Probes.usedHeapAfterGc();
        // Warm-up: the same timer renews for twice as long as the window lasts before it opens,
        // so the window sees the steady state a lease-renewing service runs in. A warm-up round on
        // a timer of its own, stopped before a fresh one was measured (until 2026-11-24), let that
        // stop() and the new timer's start deoptimize the worker's per-tick code (unstable_if
        // traps on branches the steady state never takes), which runs about once a millisecond and
        // so was recompiled by C2 only 5 to 6 s into the window (-XX:+LogCompilation): the window
        // measured the JIT and its compiler threads as much as the renewals.
        Probes.sleepNanos(start + duration - System.nanoTime());
        // A collection halfway through the warm-up as well as before the window. The pause it
        // makes (a full collection, tens of milliseconds) is the first late pass the worker
        // ever runs, and C2 compiled the steady state without that path: tickwheel's worker
        // took unstable_if traps in advance() and park() right at the window's start (JFR's
        // jdk.Deoptimization), ran profiled code for seconds and was recompiled inside the
        // window, 7 to 12 ms a second of compiler CPU against Netty's 0.3. A service meets its
        // collector's pauses long before its steady state; so does the warm-up now.
        Probes.usedHeapAfterGc();
        Probes.sleepNanos(duration);
        // Collected before the window, as W1 is before each round: without it every byte the
        // window allocates lands on a heap page never touched before (no collection happens in
        // these few seconds), and the allocating thread, the timer's here, pays the kernel's
        // page fault and zeroing for it, about a seventh of tickwheel's timer thread in
        // async-profiler; a long-running service allocates into pages its collector recycles.
        Probes.usedHeapAfterGc();
        ctx.progress("warmed up");
        renewals.lateness.startInterval();
        long before = renewals.count.sum();
        Window window = Window.open();
        Probes.sleepNanos(duration);
        window.close();
        long done = renewals.count.sum() - before;
        renewals.running = false;
        timer.stop();
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
