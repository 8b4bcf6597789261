package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import java.lang.ref.Reference;
import java.util.Locale;

/**
 * W5 far set: n pending timeouts 10 to 60 minutes out, then a window while nothing fires.
 * Reports the timer threads' and the process's CPU per second of the window (the simulator also
 * subtracts the empty JVM's process CPU). The timer first gets time to absorb the batch.
 *
 * <p>Threading: runs on the caller's thread, which sleeps through the window.
 */
public final class FarSetWorkload implements Workload {

    @Override
    public String id() {
        return "W5";
    }

    @Override
    public String name() {
        return "far set";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "%,d pending timeouts 10-60 min out, %d s while "
                + "nothing fires", sizes.farCount(), sizes.idleNanos() / Tasks.SECOND);
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !TimerCatalog.FLOOR.equals(spec.id());
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        int n = ctx.sizes().farCount();
        long[] delays = Tasks.uniformDelays(n, 600 * Tasks.SECOND, 3600 * Tasks.SECOND, 5);
        BenchTimer timer = ctx.newTimer();
        Object task = timer.prepare(Tasks.NOOP);
        try {
            Loops.scheduleAll(timer, task, delays, 0, n);
            ctx.progress("scheduled %,d", n);
            Probes.sleepNanos(ctx.sizes().settleNanos(ctx.spec().tickNanos(), n));
            IdleWorkload.measureWindow(ctx, timer);
        } finally {
            Reference.reachabilityFence(task);
        }
        ctx.newMetrics().put("count", n);
        timer.stop();
    }
}
