package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * ({@code gcsInLoops}, {@code pageFaultsPerRound}, {@code jitCpuNsPerOpInLoopMax}). The retained
 * heap is measured on one more round after the measured ones, which the medians leave out. How
 * the warm-up mirrors the measured rounds (a fresh timer per chunk) is told at
 * {@link #warmUpRound}.
 *
 * <p>Threading: runs on the caller's thread.
 */
public final class ScheduleWorkload implements Workload {

    /** Fresh timers per warm-up round; see {@link #warmUpRound}. */
    static final int WARM_UP_TIMERS = 20;
    /** Calls of each probe reading before the first round; see {@link Probes#warmUpReadings}. */
    static final int READING_WARM_UP_CALLS = 2_000;

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
        long w0 = System.nanoTime();
        Probes.warmUpReadings(READING_WARM_UP_CALLS);
        ctx.progress("probe readings warmed up in %.2f s", (System.nanoTime() - w0) / 1e9);
        RoundStats stats = new RoundStats();
        for (int i = 0; i < ctx.sizes().warmupRounds(); i++) {
            if (i == 0) {
                double[] r = warmUpRound(ctx, delays);
                ctx.progress("warm-up 1: %.1f wall, %.1f CPU ns/op (on %d timers)", r[0], r[1],
                        WARM_UP_TIMERS);
            } else {
                // Shaped as a measured round: the first measured round after the chunked warm-up
                // took 3,000 to 7,000 page faults inside its loop (4 to 10 ns per schedule more,
                // Netty's and tickwheel's alike); the later rounds about 20.
                double[] r = round(ctx, delays, false, stats);
                ctx.progress("warm-up %d: %.1f wall, %.1f CPU ns/op", i + 1, r[0], r[1]);
            }
        }
        stats.reset();
        int rounds = ctx.sizes().rounds();
        double[] wall = new double[rounds];
        double[] cpu = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            double[] r = round(ctx, delays, false, stats);
            wall[i] = r[0];
            cpu[i] = r[1];
            ctx.progress("round %d of %d: %.1f wall, %.1f CPU ns/op", i + 1, rounds, wall[i],
                    cpu[i]);
        }
        // The heap is measured on a round of its own, after the measured ones: its full
        // collections before the loop left the next loop thousands of page faults (and 4 to 8 ns
        // per schedule more, Netty's and tickwheel's alike) when round 1 measured it.
        round(ctx, delays, true, stats);
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
     * The first warm-up round: the full count, in {@link #WARM_UP_TIMERS} chunks, each on a fresh
     * timer (later warm-up rounds are shaped as measured ones).
     * Chunks, so that the loop is compiled as a method before a measured round calls it once
     * (otherwise C2 compiles it inside a measured round, on the other core). A fresh timer per
     * chunk, because every measured round begins with a fresh timer's first schedule, which
     * starts its worker: a branch taken once per timer. After two warm-up timers the JIT still
     * compiled that branch as never taken, and the first schedule of a measured round fell into
     * it (JFR: {@code unstable_if} at {@code TimerCore.schedule}'s started check, in the first
     * measured rounds), threw the compiled schedule path away and recompiled it inside the loop
     * (a round at 55-59 CPU ns against 33-38). Twenty timers show the JIT that branch the way the
     * measured rounds will meet it. Netty's timer starts its worker on the first schedule too.
     *
     * @return wall and process CPU ns/op over the whole round, timers' creation and stop included
     */
    private static double[] warmUpRound(final RunContext ctx, final long[] delays)
            throws InterruptedException {
        int n = delays.length;
        int chunk = Math.max(1, (n + WARM_UP_TIMERS - 1) / WARM_UP_TIMERS);
        Probes.collectGarbage();
        long cpu0 = Probes.processCpuNanos();
        long t0 = System.nanoTime();
        for (int from = 0; from < n; from += chunk) {
            BenchTimer timer = ctx.newTimer();
            Object task = timer.prepare(Tasks.NOOP);
            try {
                Loops.scheduleAll(timer, task, delays, from, Math.min(n, from + chunk));
            } finally {
                Reference.reachabilityFence(task);
                timer.stop();
            }
        }
        long t1 = System.nanoTime();
        long cpu1 = Probes.processCpuNanos();
        return new double[] {(double) (t1 - t0) / n, (double) (cpu1 - cpu0) / n};
    }

    /**
     * One measured round on a fresh timer; returns wall and process CPU ns/op. The heap round
     * measures the heap retained per pending timeout instead of adding to {@code stats}.
     */
    private static double[] round(final RunContext ctx, final long[] delays, final boolean heapRound,
            final RoundStats stats) throws InterruptedException {
        int n = delays.length;
        Probes.collectGarbage();
        BenchTimer timer = ctx.newTimer();
        Object task = timer.prepare(Tasks.NOOP);
        try {
            long heapBefore = heapRound ? Probes.usedHeapAfterGc() : 0;
            Probes.awaitQuietCompiler();
            double interCore = InterCore.roundTripNanos(InterCore.TRIPS);
            long gcs0 = Probes.gcCount();
            long faults0 = Probes.minorFaults();
            long jit0 = Probes.compilerCpuNanos();
            long cpu0 = Probes.processCpuNanos();
            long t0 = System.nanoTime();
            Loops.scheduleAll(timer, task, delays, 0, n);
            long t1 = System.nanoTime();
            long cpu1 = Probes.processCpuNanos();
            long gcs = Probes.gcCount() - gcs0;
            long faults = Probes.minorFaults() - faults0;
            double jit = (double) (Probes.compilerCpuNanos() - jit0) / n;
            if (heapRound) {
                Probes.sleepNanos(ctx.sizes().settleNanos(ctx.spec().tickNanos(), n));
                stats.bytesPerTimeout = (double) (Probes.usedHeapAfterGc() - heapBefore) / n;
                stats.pending = timer.pending();
            } else {
                stats.add(gcs, faults, jit);
                stats.interCore(interCore);
                ctx.progress("  inside the loop: %d collections, %d page faults, JIT compiler %.1f CPU ns/op;"
                        + " inter-core round trip just before it %.0f ns", gcs, faults, jit, interCore);
            }
            return new double[] {(double) (t1 - t0) / n, (double) (cpu1 - cpu0) / n};
        } finally {
            Reference.reachabilityFence(delays);
            Reference.reachabilityFence(task);
            timer.stop();
        }
    }

    /**
     * Puts the smallest and largest round next to the median, so the spread is on record, and every
     * round in order ({@code key + "Rounds"}), which the summary pairs with each round's inter-core
     * round trip to compare two timers over the rounds they measured in one machine state.
     */
    static void putSpread(final Metrics m, final String key, final double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        m.put(key + "Min", sorted[0]);
        m.put(key + "Max", sorted[sorted.length - 1]);
        m.put(key + "Rounds", rounds(values));
    }

    /** Values as a comma-separated list, in order. */
    static String rounds(final double[] values) {
        StringBuilder text = new StringBuilder();
        for (double v : values) {
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(String.format(Locale.ROOT, "%.3f", v));
        }
        return text.toString();
    }

    /** What the measured rounds saw inside their loops, besides time. */
    static final class RoundStats {
        private long gcs;
        private long faults;
        private double jitNsPerOp;
        private int rounds;
        private double bytesPerTimeout;
        private long pending;
        private double interCoreMin = Double.MAX_VALUE;
        private double interCoreMax;
        /** Each measured round's round trip, in order (-1 where it failed): the summary matches rounds by it. */
        private final List<Double> interCoreRounds = new ArrayList<>();

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

        /**
         * Adds the inter-core round trip measured just before a round's loop (see {@link InterCore});
         * a failed measurement (-1) is left out. Only before: just after the loop a timer's worker
         * may still be busy with what the loop queued (Netty's moves the million timeouts of W1 into
         * buckets), and the measurement's helper thread would share its core.
         */
        void interCore(final double before) {
            interCoreRounds.add(before > 0 ? before : -1);
            if (before > 0) {
                interCoreMin = Math.min(interCoreMin, before);
                interCoreMax = Math.max(interCoreMax, before);
            }
        }

        void reset() {
            gcs = 0;
            faults = 0;
            jitNsPerOp = 0;
            rounds = 0;
            interCoreMin = Double.MAX_VALUE;
            interCoreMax = 0;
            interCoreRounds.clear();
        }

        void put(final Metrics m) {
            m.put("gcsInLoops", gcs);
            m.put("pageFaultsPerRound", rounds == 0 ? 0 : faults / rounds);
            m.put("jitCpuNsPerOpInLoopMax", jitNsPerOp);
            if (interCoreMax > 0) {
                m.put("interCoreRoundTripNsMin", interCoreMin);
                m.put("interCoreRoundTripNsMax", interCoreMax);
                m.put("interCoreRoundTripNsRounds", rounds(interCoreRounds.stream().mapToDouble(Double::doubleValue)
                        .toArray()));
            }
        }
    }

    /** The median, or the upper middle of an even count. */
    static double median(final double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
