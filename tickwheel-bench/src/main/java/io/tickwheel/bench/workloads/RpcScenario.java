package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerSpec;
import java.util.Locale;

/**
 * Scenario {@code rpc}: request timeouts. Requests go out at a fixed rate, each arming a 200 ms
 * timeout; 99 in 100 get their response 2 ms later, which cancels the timeout; the rest time out.
 * Reports requests per second, lateness of the timeouts that fire, CPU and heap.
 *
 * <p>Threading: one producer (the caller) sends and cancels; the timer fires.
 */
public final class RpcScenario implements Workload {

    private static final long TIMEOUT = 200 * Tasks.MS;
    private static final long RESPONSE = 2 * Tasks.MS;
    private static final int LOST_ONE_IN = 100;

    @Override
    public String id() {
        return "rpc";
    }

    @Override
    public String name() {
        return "request timeouts";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "%,d requests/s for %d s, 200 ms timeout, 99%% answered "
                + "after 2 ms (cancel)", rate(sizes), duration(sizes) / Tasks.SECOND);
    }

    private static int rate(final Sizes sizes) {
        return sizes.count(100_000, 50_000);
    }

    private static long duration(final Sizes sizes) {
        return sizes.nanos(5 * Tasks.SECOND, Tasks.SECOND);
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !spec.isBaseline();
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        int rate = rate(ctx.sizes());
        long requests = rate * duration(ctx.sizes()) / Tasks.SECOND;
        send(ctx, Math.min(rate, 50_000), Math.min(requests, 50_000), false);
        ctx.progress("warmed up");
        send(ctx, rate, requests, true);
    }

    private static void send(final RunContext ctx, final int rate, final long requests,
            final boolean report) throws InterruptedException {
        BenchTimer timer = ctx.newTimer();
        LiveLateness lateness = new LiveLateness();
        CancelQueue responses = new CancelQueue();
        timer.schedule(timer.prepare(Tasks.NOOP), Tasks.HOUR);
        long heapBefore = Probes.usedHeapAfterGc();
        Pacer pacer = new Pacer(System.nanoTime() + 10 * Tasks.MS, rate);
        Window window = Window.open();
        long answered = 0;
        for (long i = 0; i < requests; i++) {
            long now = pacer.awaitSlot(i);
            answered += responses.cancelDue(timer, now);
            Object handle = timer.schedule(
                    timer.prepare(new DeadlineTask(lateness, now + TIMEOUT)), TIMEOUT);
            if (i % LOST_ONE_IN != LOST_ONE_IN - 1) {
                responses.add(handle, now + RESPONSE);
            }
        }
        window.close();
        long heapAfter = Probes.usedHeapAfterGc();
        answered += responses.cancelDue(timer, Long.MAX_VALUE);
        Probes.sleepNanos(TIMEOUT + Math.max(100 * Tasks.MS, 3 * ctx.spec().tickNanos()));
        timer.stop();
        if (report) {
            Metrics m = ctx.newMetrics();
            window.put(m, "requests", requests);
            m.put("targetPerSec", rate);
            m.put("cancelled", answered);
            m.put("maxLagMs", pacer.maxLagNanos() / 1e6);
            m.put("heapRetainedMb", (heapAfter - heapBefore) / 1e6);
            lateness.summarize(m);
        }
    }
}
