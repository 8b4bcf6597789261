package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerSpec;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Scenario {@code heartbeat}: idle timeouts of many connections, re-armed on every read (Netty's
 * {@code IdleStateHandler} pattern). Every connection starts armed; reads arrive at a fixed rate
 * on random connections, each cancelling the connection's timeout and arming a new one. The idle
 * timeout equals the mean gap between two reads of one connection, so about a third of the gaps
 * end in a fire. Reports reads per second, lateness of the idle fires, CPU and heap per
 * connection.
 *
 * <p>Threading: one producer (the caller) reads and re-arms; the timer fires.
 */
public final class HeartbeatScenario implements Workload {

    @Override
    public String id() {
        return "heartbeat";
    }

    @Override
    public String name() {
        return "idle timeouts re-armed on every read";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "%,d connections, %,d reads/s for %d s, idle timeout "
                + "%.1f s", connections(sizes), reads(sizes), duration(sizes) / Tasks.SECOND,
                idle(sizes) / 1e9);
    }

    private static int connections(final Sizes sizes) {
        return sizes.count(1_000_000, 100_000);
    }

    private static int reads(final Sizes sizes) {
        return sizes.count(200_000, 100_000);
    }

    private static long duration(final Sizes sizes) {
        return sizes.nanos(6 * Tasks.SECOND, 2 * Tasks.SECOND);
    }

    private static long idle(final Sizes sizes) {
        return (long) (1e9 * connections(sizes) / reads(sizes));
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !spec.isBaseline();
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        Sizes sizes = ctx.sizes();
        int connections = connections(sizes);
        long idle = idle(sizes);
        long readCount = reads(sizes) * duration(sizes) / Tasks.SECOND;
        SplittableRandom random = new SplittableRandom(Tasks.SEED);
        BenchTimer timer = ctx.newTimer();
        LiveLateness lateness = new LiveLateness();
        Object[] handles = new Object[connections];
        timer.schedule(timer.prepare(Tasks.NOOP), Tasks.HOUR);
        long heapBefore = Probes.usedHeapAfterGc();
        long armed = System.nanoTime();
        for (int c = 0; c < connections; c++) {
            long deadline = armed + idle + random.nextLong(idle);
            handles[c] = timer.schedule(timer.prepare(new DeadlineTask(lateness, deadline)),
                    deadline - System.nanoTime());
        }
        long heapArmed = Probes.usedHeapAfterGc();
        ctx.progress("armed %,d connections", connections);

        // The window's timer is the one warmed up, by the same reads (see SteadyWarmUp): until
        // 2026-11-29 the window opened right after arming and measured the compilers as well.
        // Two idle periods at least, the same for every timer: by then every connection armed
        // above was read or has timed out, so each timer's window meets the same steady mix of
        // reads and expiries whenever its compilers go quiet.
        long duration = duration(sizes);
        Pacer pacer = new Pacer(System.nanoTime() + 10 * Tasks.MS, reads(sizes));
        SteadyWarmUp warmUp = new SteadyWarmUp(pacer, idle, idle + Tasks.SECOND, 2 * idle + 2 * duration);
        long now;
        long i = 0;
        do {
            now = pacer.awaitSlot(i++);
            read(timer, lateness, handles, random.nextInt(connections), now, idle);
        } while (!warmUp.over(now));
        ctx.progress(warmUp.describe());
        // Collected before the window, as for rpc and lease (see RpcScenario). The collection
        // stops the world for about half a second here: the timeouts due meanwhile fire late
        // after it, and one idle period later the reads it held up leave a gap in the expiries.
        // The reads go on for an idle period and a second before the window opens, so that the
        // window meets the steady state and neither of those.
        long settle = reads(sizes) * (idle + Tasks.SECOND) / Tasks.SECOND;
        Pacer windowPacer = Pacer.settleBeforeWindow(reads(sizes), settle,
                (at, j) -> read(timer, lateness, handles, random.nextInt(connections), at, idle));
        lateness.startInterval();
        Window window = Window.open();
        for (long j = 0; j < readCount; j++) {
            now = windowPacer.awaitSlot(j);
            read(timer, lateness, handles, random.nextInt(connections), now, idle);
        }
        window.close();
        timer.stop();
        Metrics m = ctx.newMetrics();
        window.put(m, "reads", readCount);
        warmUp.put(m);
        m.put("connections", connections);
        m.put("maxLagMs", windowPacer.maxLagNanos() / 1e6);
        m.put("bytesPerConnection", (double) (heapArmed - heapBefore) / connections);
        m.put("heapRetainedMb", (heapArmed - heapBefore) / 1e6);
        lateness.summarize(m);
    }

    /** A read on connection {@code c}: its idle timeout is cancelled and armed again. */
    private static void read(final BenchTimer timer, final LiveLateness lateness, final Object[] handles,
            final int c, final long now, final long idle) {
        timer.cancel(handles[c]);
        handles[c] = timer.schedule(timer.prepare(new DeadlineTask(lateness, now + idle)), idle);
    }
}
