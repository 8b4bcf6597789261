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

        Pacer pacer = new Pacer(System.nanoTime() + 10 * Tasks.MS, reads(sizes));
        Window window = Window.open();
        for (long i = 0; i < readCount; i++) {
            long now = pacer.awaitSlot(i);
            int c = random.nextInt(connections);
            timer.cancel(handles[c]);
            handles[c] = timer.schedule(timer.prepare(new DeadlineTask(lateness, now + idle)),
                    idle);
        }
        window.close();
        timer.stop();
        Metrics m = ctx.newMetrics();
        window.put(m, "reads", readCount);
        m.put("connections", connections);
        m.put("maxLagMs", pacer.maxLagNanos() / 1e6);
        m.put("bytesPerConnection", (double) (heapArmed - heapBefore) / connections);
        m.put("heapRetainedMb", (heapArmed - heapBefore) / 1e6);
        lateness.summarize(m);
    }
}
