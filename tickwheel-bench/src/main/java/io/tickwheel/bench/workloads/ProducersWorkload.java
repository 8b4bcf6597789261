package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiFunction;

/**
 * W7 producers: W1 and W2 from two threads at once, each doing half of the operations (W2: each
 * with its own ring of half the outstanding timeouts, filled before the start), on a fresh timer
 * per part. As in W1, {@link Sizes#warmupRounds()} unmeasured parts of the full size come first
 * and garbage is collected before every part (see {@link Probes#collectGarbage()}). Reports per
 * part the wall nanoseconds per operation seen by each thread (their mean) and the process CPU
 * per operation over the time both threads ran, as the median of {@link Sizes#rounds()} rounds.
 *
 * <p>Threading: two producer threads started here; the caller waits for both, and they stay
 * alive until it has read the process CPU (an exited thread's CPU would no longer be counted).
 */
public final class ProducersWorkload implements Workload {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int PRODUCERS = 2;

    @Override
    public String id() {
        return "W7";
    }

    @Override
    public String name() {
        return "producers";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "W1 (%,d schedules) and W2 (%,d ops) from %d threads "
                + "at once", sizes.scheduleCount(), sizes.churnOps(), PRODUCERS);
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !TimerCatalog.IDLE_JVM.equals(spec.id());
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        int perThread = Math.max(1, ctx.sizes().scheduleCount() / PRODUCERS);
        long[] delays = Tasks.uniformDelays(perThread, 10 * Tasks.SECOND, 60 * Tasks.SECOND, 7);
        BiFunction<BenchTimer, Integer, Runnable> schedule = (timer, ops) -> {
            Object task = timer.prepare(Tasks.NOOP);
            return () -> Loops.scheduleChunked(timer, task, delays, ops);
        };
        report(ctx, "schedule", perThread, schedule);

        int opsPerThread = Math.max(1, ctx.sizes().churnOps() / PRODUCERS);
        int ringSize = Math.max(1, ctx.sizes().churnOutstanding() / PRODUCERS);
        BiFunction<BenchTimer, Integer, Runnable> churn = (timer, ops) -> {
            Object task = timer.prepare(Tasks.NOOP);
            Object[] ring = new Object[ringSize];
            Loops.fill(timer, task, ring);
            return () -> Loops.churnChunked(timer, task, ring, ops);
        };
        report(ctx, "churn", opsPerThread, churn);
    }

    /**
     * Runs the warm-up parts, then {@link Sizes#rounds()} measured parts, each on a fresh timer,
     * and reports their medians.
     */
    private static void report(final RunContext ctx, final String part, final int opsPerThread,
            final BiFunction<BenchTimer, Integer, Runnable> setup) throws InterruptedException {
        for (int i = 0; i < ctx.sizes().warmupRounds(); i++) {
            runPart(ctx, part, opsPerThread, setup, false);
        }
        int rounds = ctx.sizes().rounds();
        double[][] results = new double[3][rounds];
        for (int round = 0; round < rounds; round++) {
            double[] result = runPart(ctx, part, opsPerThread, setup, true);
            for (int i = 0; i < result.length; i++) {
                results[i][round] = result[i];
            }
        }
        Metrics m = ctx.newMetrics();
        m.put(part + "OpsPerThread", opsPerThread);
        m.put(part + "Rounds", rounds);
        m.put(part + "WallNsPerOpPerThread", ScheduleWorkload.median(results[0]));
        m.put(part + "CpuNsPerOp", ScheduleWorkload.median(results[1]));
        ScheduleWorkload.putSpread(m, part + "CpuNsPerOp", results[1]);
        m.put(part + "ProducerCpuNsPerOp", ScheduleWorkload.median(results[2]));
    }

    /** Runs one part; returns wall ns/op per thread, process and producer CPU ns/op, or null. */
    private static double[] runPart(final RunContext ctx, final String part, final int opsPerThread,
            final BiFunction<BenchTimer, Integer, Runnable> setup, final boolean report)
            throws InterruptedException {
        Probes.collectGarbage();
        BenchTimer timer = ctx.newTimer();
        timer.schedule(timer.prepare(Tasks.NOOP), Tasks.HOUR);
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(PRODUCERS);
        CountDownLatch release = new CountDownLatch(1);
        long[] wall = new long[PRODUCERS];
        long[] threadCpu = new long[PRODUCERS];
        Thread[] threads = new Thread[PRODUCERS];
        for (int t = 0; t < PRODUCERS; t++) {
            int index = t;
            Runnable work = setup.apply(timer, opsPerThread);
            threads[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                work.run();
                wall[index] = System.nanoTime() - t0;
                threadCpu[index] = THREADS.getCurrentThreadCpuTime() - cpu0;
                finished.countDown();
                try {
                    release.await(); // stay alive until the process CPU has been read
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "producer-" + t);
            threads[t].start();
        }
        Probes.sleepNanos(20 * Tasks.MS);
        long cpu0 = Probes.processCpuNanos();
        start.countDown();
        finished.await();
        long cpu1 = Probes.processCpuNanos();
        release.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        timer.stop();
        if (!report) {
            ctx.progress("%s: warm-up part done", part);
            return null;
        }
        long totalOps = (long) opsPerThread * PRODUCERS;
        double wallPerOp = 0;
        double threadCpuPerOp = 0;
        for (int t = 0; t < PRODUCERS; t++) {
            wallPerOp += (double) wall[t] / opsPerThread / PRODUCERS;
            threadCpuPerOp += (double) threadCpu[t] / opsPerThread / PRODUCERS;
        }
        double cpuPerOp = (double) (cpu1 - cpu0) / totalOps;
        ctx.progress("%s: %.1f wall ns/op per thread, %.1f process CPU ns/op", part, wallPerOp, cpuPerOp);
        return new double[] {wallPerOp, cpuPerOp, threadCpuPerOp};
    }
}
