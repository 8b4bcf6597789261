package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerSpec;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Scenario {@code order-close}: e-commerce orders that close themselves 30 minutes after
 * creation unless paid. The timer starts with thousands of orders pending, their deadlines
 * spread over the next 30 minutes as if created over the last 30 (so a few close during the
 * run); new orders arrive at a fixed rate and 9 in 10 are paid (cancelled) one second later.
 * Reports orders per second, lateness of the closes, CPU while holding the far-future set, and
 * heap per pending order.
 *
 * <p>Threading: one producer (the caller) creates and cancels; the timer fires.
 */
public final class OrderCloseScenario implements Workload {

    private static final long CLOSE_AFTER = 30 * 60 * Tasks.SECOND;
    private static final long PAID_AFTER = Tasks.SECOND;

    @Override
    public String id() {
        return "order-close";
    }

    @Override
    public String name() {
        return "30-minute order close";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "%,d orders pending (closing within 30 min), %,d new "
                + "orders/s for %d s, 90%% paid after 1 s", pending(sizes), rate(sizes),
                duration(sizes) / Tasks.SECOND);
    }

    private static int pending(final Sizes sizes) {
        return sizes.count(100_000, 20_000);
    }

    private static int rate(final Sizes sizes) {
        return sizes.count(1_000, 500);
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
        Sizes sizes = ctx.sizes();
        int pending = pending(sizes);
        BenchTimer timer = ctx.newTimer();
        LiveLateness lateness = new LiveLateness();
        SplittableRandom random = new SplittableRandom(Tasks.SEED);
        timer.schedule(timer.prepare(Tasks.NOOP), Tasks.HOUR);
        long heapBefore = Probes.usedHeapAfterGc();
        long now0 = System.nanoTime();
        for (int i = 0; i < pending; i++) {
            long deadline = now0 + 1 + random.nextLong(CLOSE_AFTER);
            timer.schedule(timer.prepare(new DeadlineTask(lateness, deadline)),
                    deadline - System.nanoTime());
        }
        Probes.sleepNanos(sizes.settleNanos(ctx.spec().tickNanos(), pending));
        long heapArmed = Probes.usedHeapAfterGc();
        ctx.progress("%,d orders pending", pending);

        long orders = rate(sizes) * duration(sizes) / Tasks.SECOND;
        CancelQueue payments = new CancelQueue();
        // The window's timer is the one warmed up, by the same orders (see SteadyWarmUp): until
        // 2026-11-29 the window opened at once and measured the compilers as well.
        Pacer pacer = new Pacer(System.nanoTime() + 10 * Tasks.MS, rate(sizes));
        SteadyWarmUp warmUp = new SteadyWarmUp(pacer, duration(sizes) / 2, PAID_AFTER + Tasks.SECOND / 2,
                3 * duration(sizes));
        long now;
        long i = 0;
        do {
            now = pacer.awaitSlot(i);
            order(timer, lateness, payments, now, i++);
        } while (!warmUp.over(now));
        ctx.progress(warmUp.describe());
        // Collected before the window, as for rpc and lease (see RpcScenario); the orders go on for
        // one payment delay before it opens, so that the payments held up by the pause are in.
        long settle = rate(sizes) * PAID_AFTER / Tasks.SECOND;
        Pacer windowPacer = Pacer.settleBeforeWindow(rate(sizes), settle,
                (at, j) -> order(timer, lateness, payments, at, j));
        // Nine in ten orders placed so far were paid; the rest joined the pending set.
        long pendingAtStart = pending + (i + settle) / 10;
        lateness.startInterval();
        Window window = Window.open();
        long paid = 0;
        for (long j = settle; j < settle + orders; j++) {
            now = windowPacer.awaitSlot(j - settle);
            paid += order(timer, lateness, payments, now, j);
        }
        Probes.sleepNanos(window.startNanos() + duration(sizes) - System.nanoTime());
        window.close();
        timer.stop();
        Metrics m = ctx.newMetrics();
        window.put(m, "orders", orders);
        warmUp.put(m);
        m.put("paid", paid);
        m.put("pendingAtStart", pendingAtStart);
        m.put("bytesPerPending", (double) (heapArmed - heapBefore) / pending);
        m.put("heapRetainedMb", (heapArmed - heapBefore) / 1e6);
        lateness.summarize(m);
    }

    /**
     * Places order {@code i}: takes the payments that are due (cancelling their close), then arms
     * this order's close; nine orders in ten are paid {@link #PAID_AFTER} later.
     *
     * @return how many payments came in
     */
    private static int order(final BenchTimer timer, final LiveLateness lateness, final CancelQueue payments,
            final long now, final long i) {
        int paid = payments.cancelDue(timer, now);
        Object handle = timer.schedule(timer.prepare(new DeadlineTask(lateness, now + CLOSE_AFTER)), CLOSE_AFTER);
        if (i % 10 != 9) {
            payments.add(handle, now + PAID_AFTER);
        }
        return paid;
    }
}
