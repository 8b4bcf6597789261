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
        long duration = duration(ctx.sizes());
        long requests = rate * duration / Tasks.SECOND;
        BenchTimer timer = ctx.newTimer();
        LiveLateness lateness = new LiveLateness();
        CancelQueue responses = new CancelQueue();
        timer.schedule(timer.prepare(Tasks.NOOP), Tasks.HOUR);
        long heapBefore = Probes.usedHeapAfterGc();
        // The window's timer is the one warmed up (see SteadyWarmUp): a warm-up timer of its own,
        // stopped before the window's started, deoptimized the worker's code on the way.
        Pacer pacer = new Pacer(System.nanoTime() + 10 * Tasks.MS, rate);
        SteadyWarmUp warmUp = new SteadyWarmUp(pacer, duration / 2, Tasks.SECOND,
                Math.max(4 * duration, 10 * Tasks.SECOND));
        long now;
        long i = 0;
        do {
            now = pacer.awaitSlot(i);
            request(timer, lateness, responses, now, i++);
        } while (!warmUp.over(now));
        ctx.progress(warmUp.describe());
        // Collected before the window, as W1 is before each round and lease before its window; the
        // load goes on for one timeout's length, so that what the pause held up has fired.
        long settle = rate * TIMEOUT / Tasks.SECOND;
        Pacer windowPacer = Pacer.settleBeforeWindow(rate, settle,
                (at, j) -> request(timer, lateness, responses, at, j));
        lateness.startInterval();
        Window window = Window.open();
        long answered = 0;
        for (long j = settle; j < settle + requests; j++) {
            now = windowPacer.awaitSlot(j - settle);
            answered += request(timer, lateness, responses, now, j);
        }
        window.close();
        long heapAfter = Probes.usedHeapAfterGc();
        responses.cancelDue(timer, Long.MAX_VALUE);
        Probes.sleepNanos(TIMEOUT + Math.max(100 * Tasks.MS, 3 * ctx.spec().tickNanos()));
        timer.stop();
        Metrics m = ctx.newMetrics();
        window.put(m, "requests", requests);
        warmUp.put(m);
        m.put("targetPerSec", rate);
        m.put("cancelled", answered);
        m.put("maxLagMs", windowPacer.maxLagNanos() / 1e6);
        m.put("heapRetainedMb", (heapAfter - heapBefore) / 1e6);
        lateness.summarize(m);
    }

    /**
     * Sends request {@code i}: answers (cancels) the requests whose response is due, then arms
     * this one's timeout, whose response is due in {@link #RESPONSE} unless it is lost.
     *
     * @return how many responses came in
     */
    private static int request(final BenchTimer timer, final LiveLateness lateness,
            final CancelQueue responses, final long now, final long i) {
        int answered = responses.cancelDue(timer, now);
        Object handle = timer.schedule(timer.prepare(new DeadlineTask(lateness, now + TIMEOUT)), TIMEOUT);
        if (i % LOST_ONE_IN != LOST_ONE_IN - 1) {
            responses.add(handle, now + RESPONSE);
        }
        return answered;
    }
}
