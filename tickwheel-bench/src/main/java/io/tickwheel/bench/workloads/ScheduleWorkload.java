package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.Locale;

/**
 * W1 schedule: one thread schedules n timeouts with delays of 10 to 60 s (none fire). Reports
 * wall and process-CPU nanoseconds per schedule, and the heap retained per pending timeout
 * (the heap in use after full collections with every timeout pending, minus the same before,
 * over n; every timeout shares one task, so the task's size is excluded).
 *
 * <p>BENCH.md's method, literally: {@link Sizes#warmupRounds()} warm-up rounds of the full n,
 * then {@link Sizes#rounds()} measured rounds, each on a fresh timer, garbage collected before
 * every round, CPU counted over the scheduling loop only, the median reported. CPU is the
 * process's (every thread), so the timer thread's share of the work done meanwhile counts. The
 * collection between rounds matters: without it, a round allocates into heap pages the process
 * never touched, and each first touch is a page fault, which made Netty's W1 look 1.6 x as
 * slow as it is (see {@link Probes#collectGarbage()}). Each round also records the collections
 * and page faults inside its loop, so such an artefact shows in the results
 * ({@code gcsInLoops}, {@code pageFaultsPerRound}). The retained heap is measured after the
 * first measured round's loop.
 *
 * <p>Threading: runs on the caller's thread.
 */
public final class ScheduleWorkload implements Workload {

    @Override
    public String id() {
        return "W1";
    }

    @Override
    public String name() {
        return "schedule";
    }

    @Override
    public String describe(final Sizes sizes) {
        return String.format(Locale.ROOT, "1 thread schedules %,d timeouts, delays 10-60 s "
                + "(none fire)", sizes.scheduleCount());
    }

    @Override
    public boolean appliesTo(final TimerSpec spec) {
        return !TimerCatalog.IDLE_JVM.equals(spec.id());
    }

    @Override
    public void run(final RunContext ctx) throws InterruptedException {
        int n = ctx.sizes().scheduleCount();
        long[] delays = Tasks.uniformDelays(n, 10 * Tasks.SECOND, 60 * Tasks.SECOND, 1);
        RoundStats stats = new RoundStats();
        for (int i = 0; i < ctx.sizes().warmupRounds(); i++) {
            double[] r = round(ctx, delays, true, false, stats);
            ctx.progress("warm-up %d: %.1f wall, %.1f CPU ns/op", i + 1, r[0], r[1]);
        }
        stats.reset();
        int rounds = ctx.sizes().rounds();
        double[] wall = new double[rounds];
        double[] cpu = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            double[] r = round(ctx, delays, false, i == 0, stats);
            wall[i] = r[0];
            cpu[i] = r[1];
            ctx.progress("round %d of %d: %.1f wall, %.1f CPU ns/op", i + 1, rounds, wall[i],
                    cpu[i]);
        }
        Metrics m = ctx.newMetrics();
        m.put("count", n);
        m.put("warmupRounds", ctx.sizes().warmupRounds());
        m.put("rounds", rounds);
        m.put("wallNsPerOp", median(wall));
        m.put("cpuNsPerOp", median(cpu));
        putSpread(m, "wallNsPerOp", wall);
        putSpread(m, "cpuNsPerOp", cpu);
        m.put("bytesPerTimeout", stats.bytesPerTimeout);
        m.put("pending", stats.pending);
        stats.put(m);
    }

    /**
     * One round on a fresh timer; returns wall and process CPU ns/op. A warm-up round schedules in
     * chunks, so that the loop is compiled as a method before a measured round calls it once
     * (otherwise C2 compiles it inside a measured round, on the other core).
     */
    private static double[] round(final RunContext ctx, final long[] delays, final boolean warmUp,
            final boolean measureHeap, final RoundStats stats) throws InterruptedException {
        int n = delays.length;
        Probes.collectGarbage();
        BenchTimer timer = ctx.newTimer();
        Object task = timer.prepare(Tasks.NOOP);
        try {
            long heapBefore = measureHeap ? Probes.usedHeapAfterGc() : 0;
            Probes.awaitQuietCompiler();
            long gcs0 = Probes.gcCount();
            long faults0 = Probes.minorFaults();
            long jit0 = Probes.compilerCpuNanos();
            long cpu0 = Probes.processCpuNanos();
            long t0 = System.nanoTime();
            if (warmUp) {
                Loops.scheduleChunked(timer, task, delays, n);
            } else {
                Loops.scheduleAll(timer, task, delays, 0, n);
            }
            long t1 = System.nanoTime();
            long cpu1 = Probes.processCpuNanos();
            stats.add(Probes.gcCount() - gcs0, Probes.minorFaults() - faults0,
                    (double) (Probes.compilerCpuNanos() - jit0) / n);
            if (measureHeap) {
                Probes.sleepNanos(ctx.sizes().settleNanos(ctx.spec().tickNanos(), n));
                stats.bytesPerTimeout = (double) (Probes.usedHeapAfterGc() - heapBefore) / n;
                stats.pending = timer.pending();
            }
            return new double[] {(double) (t1 - t0) / n, (double) (cpu1 - cpu0) / n};
        } finally {
            Reference.reachabilityFence(delays);
            Reference.reachabilityFence(task);
            timer.stop();
        }
    }

    /** Puts the smallest and largest round next to the median, so the spread is on record. */
    static void putSpread(final Metrics m, final String key, final double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        m.put(key + "Min", sorted[0]);
        m.put(key + "Max", sorted[sorted.length - 1]);
    }

    /** What the measured rounds saw inside their loops, besides time. */
    static final class RoundStats {
        private long gcs;
        private long faults;
        private double jitNsPerOp;
        private int rounds;
        private double bytesPerTimeout;
        private long pending;

        /**
         * Adds one round's collections, page faults and JIT compiler CPU inside its loop (the
         * compiler's share of the round's process CPU, per operation; after
         * {@link Probes#awaitQuietCompiler()} it should be near zero).
         */
        void add(final long gcsInLoop, final long faultsInLoop, final double jitInLoopNsPerOp) {
            gcs += gcsInLoop;
            faults += Math.max(0, faultsInLoop);
            jitNsPerOp = Math.max(jitNsPerOp, jitInLoopNsPerOp);
            rounds++;
        }

        void reset() {
            gcs = 0;
            faults = 0;
            jitNsPerOp = 0;
            rounds = 0;
        }

        void put(final Metrics m) {
            m.put("gcsInLoops", gcs);
            m.put("pageFaultsPerRound", rounds == 0 ? 0 : faults / rounds);
            m.put("jitCpuNsPerOpInLoopMax", jitNsPerOp);
        }
    }

    /** The median, or the upper middle of an even count. */
    static double median(final double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
