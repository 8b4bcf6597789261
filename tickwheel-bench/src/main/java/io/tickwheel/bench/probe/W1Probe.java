package io.tickwheel.bench.probe;

import io.tickwheel.bench.timers.FloorTimer;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * An independent cross-check of the simulator's W1, written to BENCH.md's method literally and
 * sharing none of the simulator's code but the floor: one timer per JVM, called through its own
 * API (no adapter), {@code warmups} rounds of the full count then {@code rounds} measured rounds,
 * each on a fresh timer, garbage collected between rounds, process CPU over the scheduling loop
 * only, the median reported. Each round's CPU is split by thread (the scheduling thread, the
 * timer's threads, the JVM's own: GC, JIT compilers, VM thread) and the collections and
 * compilation time inside the loop are printed, so a difference between harnesses can be traced
 * to where it comes from.
 *
 * <p>Usage: {@code java -cp tickwheel-bench.jar io.tickwheel.bench.probe.W1Probe <timer>
 * [key=value...]}; timers {@code netty41}, {@code hier}, {@code hashed}, {@code floor}; keys:
 * {@code n} (1000000), {@code warmups} (2), {@code warmupSize} (n), {@code rounds} (5),
 * {@code gc} (true: collect before each round), {@code prestart} (false: start the worker with
 * one far timeout before the loop), {@code keep} (false: keep the last stopped timer's returned
 * set reachable until after the next loop).
 *
 * <p>Threading: runs on the main thread; the timers own their threads.
 */
public final class W1Probe {

    private static final long SECOND = 1_000_000_000L;

    private final Target target;
    private final long[] delays;
    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
    /** The last stopped timer's returned set, when asked to keep it (so it is garbage later). */
    private Object kept;

    private W1Probe(final Target target, final int n) {
        this.target = target;
        SplittableRandom random = new SplittableRandom(42);
        delays = new long[n];
        for (int i = 0; i < n; i++) {
            delays[i] = random.nextLong(10 * SECOND, 60 * SECOND + 1);
        }
    }

    /**
     * Runs the probe.
     *
     * @param args the timer, then {@code key=value} settings
     * @throws InterruptedException if interrupted between rounds
     */
    public static void main(final String[] args) throws InterruptedException {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: W1Probe <netty41|hier|hashed|floor> "
                    + "[n=1000000] [warmups=2] [warmupSize=n] [rounds=5] [gc=true] "
                    + "[prestart=false] [keep=false]");
        }
        Settings s = Settings.parse(args);
        W1Probe probe = new W1Probe(Target.of(args[0]), Math.max(s.n, s.warmupSize));
        System.out.printf(Locale.ROOT, "W1Probe %s %s, JVM %s %s%n", args[0], s,
                System.getProperty("java.vm.version"),
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        for (int i = 0; i < s.warmups; i++) {
            probe.round(s, s.warmupSize, "warm-up " + (i + 1));
        }
        double[] wall = new double[s.rounds];
        double[] cpu = new double[s.rounds];
        for (int i = 0; i < s.rounds; i++) {
            double[] r = probe.round(s, s.n, "round " + (i + 1));
            wall[i] = r[0];
            cpu[i] = r[1];
        }
        System.out.printf(Locale.ROOT, "median %s: wall %.1f ns/op, process CPU %.1f ns/op "
                + "(wall %.1f-%.1f, CPU %.1f-%.1f)%n", args[0], median(wall), median(cpu),
                min(wall), max(wall), min(cpu), max(cpu));
    }

    /** One round on a fresh timer; returns wall and process CPU ns/op. */
    private double[] round(final Settings s, final int n, final String label)
            throws InterruptedException {
        Target.Instance timer = target.create();
        if (s.prestart) {
            timer.schedule(3600 * SECOND);
            TimeUnit.MILLISECONDS.sleep(50);
        }
        if (s.gc) {
            System.gc();
            TimeUnit.MILLISECONDS.sleep(100);
        }
        long gcCount0 = gcCount();
        long gcTime0 = gcTime();
        long jit0 = jit.getTotalCompilationTime();
        Object previous = kept;
        long alive = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(ThreadCpu.TIMER_THREAD)).count();
        long faults0 = ThreadCpu.minorFaults();
        ThreadCpu.Snapshot before;
        ThreadCpu.Snapshot after;
        long t0;
        long t1;
        try {
            before = ThreadCpu.snapshot();
            t0 = System.nanoTime();
            timer.scheduleAll(delays, n);
            t1 = System.nanoTime();
            after = ThreadCpu.snapshot();
        } finally {
            Reference.reachabilityFence(previous);
        }
        long faults1 = ThreadCpu.minorFaults();
        long jit1 = jit.getTotalCompilationTime();
        long gcCount1 = gcCount();
        long gcTime1 = gcTime();
        Object returned = timer.stop();
        kept = s.keep ? returned : null;
        double wall = (double) (t1 - t0) / n;
        long[] split = after.minus(before);
        double cpu = (double) split[0] / n;
        System.out.printf(Locale.ROOT, "%-10s wall %6.1f  cpu %6.1f = main %5.1f + timer %5.1f "
                + "+ gc %5.1f + jit %5.1f + other %5.1f ns/op; %d GCs %d ms, JIT %d ms, "
                + "%d page faults in loop; %d timer threads alive before%n",
                label, wall, cpu, (double) split[1] / n, (double) split[2] / n,
                (double) split[3] / n, (double) split[4] / n, (double) split[5] / n,
                gcCount1 - gcCount0, gcTime1 - gcTime0, jit1 - jit0, faults1 - faults0, alive);
        return new double[] {wall, cpu};
    }

    private long gcCount() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : gcs) {
            sum += gc.getCollectionCount();
        }
        return sum;
    }

    private long gcTime() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : gcs) {
            sum += gc.getCollectionTime();
        }
        return sum;
    }

    private static double median(final double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double min(final double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(final double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }

    /** The probe's settings. */
    private static final class Settings {
        int n = 1_000_000;
        int warmups = 2;
        int warmupSize = -1;
        int rounds = 5;
        boolean gc = true;
        boolean prestart;
        boolean keep;

        static Settings parse(final String[] args) {
            Settings s = new Settings();
            List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
            for (String arg : rest) {
                int eq = arg.indexOf('=');
                String key = eq < 0 ? arg : arg.substring(0, eq);
                String value = eq < 0 ? "true" : arg.substring(eq + 1);
                switch (key) {
                    case "n" -> s.n = Integer.parseInt(value);
                    case "warmups" -> s.warmups = Integer.parseInt(value);
                    case "warmupSize" -> s.warmupSize = Integer.parseInt(value);
                    case "rounds" -> s.rounds = Integer.parseInt(value);
                    case "gc" -> s.gc = Boolean.parseBoolean(value);
                    case "prestart" -> s.prestart = Boolean.parseBoolean(value);
                    case "keep" -> s.keep = Boolean.parseBoolean(value);
                    default -> throw new IllegalArgumentException("unknown setting " + arg);
                }
            }
            if (s.warmupSize < 0) {
                s.warmupSize = s.n;
            }
            return s;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "n=%d warmups=%d warmupSize=%d rounds=%d gc=%b "
                    + "prestart=%b keep=%b", n, warmups, warmupSize, rounds, gc, prestart, keep);
        }
    }

    /** The timers the probe knows, each called through its own API. */
    private enum Target {
        NETTY41, HIER, HASHED, FLOOR;

        static Target of(final String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }

        Instance create() {
            ThreadFactory threads = r -> {
                Thread t = new Thread(r, ThreadCpu.TIMER_THREAD);
                t.setDaemon(true);
                return t;
            };
            return switch (this) {
                case NETTY41 -> new Netty41(threads);
                case HIER -> new Tickwheel(io.tickwheel.HierarchicalWheelTimer.builder()
                        .threadFactory(threads).tickDuration(java.time.Duration.ofMillis(1))
                        .build());
                case HASHED -> new Tickwheel(new io.tickwheel.HashedWheelTimer(threads, 1,
                        TimeUnit.MILLISECONDS, 512));
                case FLOOR -> new Floor();
            };
        }

        /** A fresh timer of one kind; each kind has its own loop, calling its own API. */
        interface Instance {
            void schedule(long delayNanos);

            void scheduleAll(long[] delays, int n);

            Object stop();
        }
    }

    /** Netty 4.1, 1 ms x 512. */
    private static final class Netty41 implements Target.Instance {
        private final io.netty.util.HashedWheelTimer timer;
        private final io.netty.util.TimerTask task = t -> { };

        Netty41(final ThreadFactory threads) {
            timer = new io.netty.util.HashedWheelTimer(threads, 1, TimeUnit.MILLISECONDS, 512);
        }

        @Override
        public void schedule(final long delayNanos) {
            timer.newTimeout(task, delayNanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public void scheduleAll(final long[] delays, final int n) {
            for (int i = 0; i < n; i++) {
                timer.newTimeout(task, delays[i], TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public Object stop() {
            return timer.stop();
        }
    }

    /** Either tickwheel timer. */
    private static final class Tickwheel implements Target.Instance {
        private final io.tickwheel.Timer timer;
        private final io.tickwheel.TimerTask task = t -> { };

        Tickwheel(final io.tickwheel.Timer timer) {
            this.timer = timer;
        }

        @Override
        public void schedule(final long delayNanos) {
            timer.newTimeout(task, delayNanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public void scheduleAll(final long[] delays, final int n) {
            for (int i = 0; i < n; i++) {
                timer.newTimeout(task, delays[i], TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public Object stop() {
            return timer.stop();
        }
    }

    /** A task that does nothing. */
    private static final class Noop implements Runnable {
        @Override
        public void run() {
            // never runs: the floor fires nothing
        }
    }

    /** The floor: nanoTime, one allocation, one MPSC offer. */
    private static final class Floor implements Target.Instance {
        private final FloorTimer timer = new FloorTimer();
        private final Runnable task = new Noop();

        @Override
        public void schedule(final long delayNanos) {
            timer.schedule(task, delayNanos);
        }

        @Override
        public void scheduleAll(final long[] delays, final int n) {
            for (int i = 0; i < n; i++) {
                timer.schedule(task, delays[i]);
            }
        }

        @Override
        public Object stop() {
            return timer;
        }
    }
}
