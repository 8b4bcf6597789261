package io.tickwheel.bench.ses;

import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.TimeoutFutures;
import io.tickwheel.Timer;
import io.tickwheel.WheelScheduledExecutorService;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Issue 5's comparison, in one JVM and one run: {@code WheelScheduledExecutorService} against
 * {@code ScheduledThreadPoolExecutor} on {@link SesChurn}, and {@code TimeoutFutures.orTimeout}
 * against the JDK's {@code CompletableFuture.orTimeout} on {@link OrTimeoutChurn}. Every subject
 * runs once to warm up, then {@code rounds} times in rotating order; the median of each figure
 * is reported with its ratio (tickwheel ÷ peer).
 *
 * <p>Usage: {@code SesComparison [--quick] [--ops N] [--rounds R]}; run with a heap big enough
 * for the STPE leak (about 100 bytes per op), e.g. {@code -Xms2g -Xmx2g -XX:+UseParallelGC}.
 *
 * <p>Threading: not thread-safe; run from one thread.
 */
public final class SesComparison {

    /** Futures outstanding at once in the orTimeout workload. */
    private static final int FUTURES_WINDOW = 10_000;

    private SesComparison() {
    }

    /** An executor under test: how to make one and how to release it and what is behind it. */
    record SesSubject(String name, Supplier<ScheduledExecutorService> factory,
            Consumer<ScheduledExecutorService> close) {
    }

    /** A way of giving futures timeouts: the JDK's, or TimeoutFutures on a fresh timer per run. */
    private record TimeoutSubject(String name, Supplier<Timer> timers, boolean jdk) {
    }

    /**
     * Runs the comparison and prints the table.
     *
     * @param args {@code --quick}, {@code --ops N}, {@code --rounds R}
     */
    public static void main(final String[] args) {
        int ops = 2_000_000;
        int rounds = 3;
        int[] sizes = {10_000, 1_000_000};
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> {
                    ops = 300_000;
                    rounds = 2;
                    sizes = new int[] {10_000, 100_000};
                }
                case "--ops" -> ops = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        System.out.printf(Locale.ROOT, "# executor adapter and orTimeout comparison, %s%n# %s %s, %d CPUs, flags %s%n",
                Instant.now(), System.getProperty("java.vm.name"), System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), ManagementFactory.getRuntimeMXBean().getInputArguments());
        print(measure(ops, rounds, sizes));
    }

    private static List<Measurement> measureChurn(final List<SesSubject> subjects, final SesChurn churn,
            final SesChurn warmUp, final int rounds) {
        List<List<Measurement>> perSubject = new ArrayList<>();
        for (SesSubject subject : subjects) {
            warmUp.run(subject.name(), subject.factory(), subject.close());
            perSubject.add(new ArrayList<>());
        }
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < subjects.size(); k++) {
                int index = (k + round) % subjects.size();
                SesSubject subject = subjects.get(index);
                progress(churn.name(), subject.name(), round);
                perSubject.get(index).add(churn.run(subject.name(), subject.factory(), subject.close()));
            }
        }
        List<Measurement> medians = new ArrayList<>();
        perSubject.forEach(list -> medians.add(median(list)));
        return medians;
    }

    /**
     * Measures every subject of both workloads.
     *
     * @param ops operations per measured round
     * @param rounds measured rounds per subject (after one warm-up round)
     * @param outstandingSizes the numbers of outstanding tasks to run the executor workload with
     * @return the median figures, one per workload and subject
     */
    public static List<Measurement> measure(final int ops, final int rounds, final int... outstandingSizes) {
        List<Measurement> results = new ArrayList<>();
        List<SesSubject> sesSubjects = List.of(
                stpe("STPE(1)", false),
                stpe("STPE(1) removeOnCancel", true),
                wheel("WheelSES on HierarchicalWheelTimer 1ms", () -> HierarchicalWheelTimer.builder().build()),
                wheel("WheelSES on HashedWheelTimer 1ms/512",
                        () -> HashedWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build()));
        for (int outstanding : outstandingSizes) {
            results.addAll(measureChurn(sesSubjects, new SesChurn(ops, outstanding, 42),
                    new SesChurn(Math.max(ops / 10, outstanding), outstanding, 42), rounds));
        }
        // The smallest size again with delays of 10 to 60 ms, so that every executor also takes its
        // cancelled tasks off its queue inside the measurement (see SesChurn).
        int steadyOutstanding = outstandingSizes[0];
        long steadyDelay = TimeUnit.MILLISECONDS.toNanos(10);
        results.addAll(measureChurn(sesSubjects,
                new SesChurn(2 * ops, steadyOutstanding, 42, steadyDelay, true),
                new SesChurn(Math.max(ops / 5, steadyOutstanding), steadyOutstanding, 42, steadyDelay, true), rounds));
        List<List<Measurement>> perSubject = new ArrayList<>();
        List<TimeoutSubject> timeoutSubjects = List.of(
                new TimeoutSubject("CompletableFuture.orTimeout (JDK)", null, true),
                new TimeoutSubject("TimeoutFutures on HierarchicalWheelTimer 1ms",
                        () -> HierarchicalWheelTimer.builder().build(), false),
                new TimeoutSubject("TimeoutFutures on HashedWheelTimer 1ms/512",
                        () -> HashedWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build(), false));
        OrTimeoutChurn futures = new OrTimeoutChurn(ops, FUTURES_WINDOW);
        OrTimeoutChurn futuresWarmUp = new OrTimeoutChurn(Math.max(ops / 10, FUTURES_WINDOW), FUTURES_WINDOW);
        for (TimeoutSubject subject : timeoutSubjects) {
            run(futuresWarmUp, subject);
            perSubject.add(new ArrayList<>());
        }
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < timeoutSubjects.size(); k++) {
                int index = (k + round) % timeoutSubjects.size();
                progress("orTimeout", timeoutSubjects.get(index).name(), round);
                perSubject.get(index).add(run(futures, timeoutSubjects.get(index)));
            }
        }
        perSubject.forEach(list -> results.add(median(list)));
        return results;
    }

    /** A one-thread {@code ScheduledThreadPoolExecutor}, with or without its remove-on-cancel policy. */
    static SesSubject stpe(final String name, final boolean removeOnCancel) {
        return new SesSubject(name, () -> {
            ScheduledThreadPoolExecutor stpe = new ScheduledThreadPoolExecutor(1);
            stpe.setRemoveOnCancelPolicy(removeOnCancel);
            return stpe;
        }, ScheduledExecutorService::shutdownNow);
    }

    /** {@code WheelScheduledExecutorService} on a fresh timer from {@code timers} and one worker thread. */
    static SesSubject wheel(final String name, final Supplier<Timer> timers) {
        List<Runnable> cleanup = new ArrayList<>();
        return new SesSubject(name, () -> {
            Timer timer = timers.get();
            ExecutorService workers = Executors.newSingleThreadExecutor();
            cleanup.add(timer::stop);
            cleanup.add(workers::shutdownNow);
            return new WheelScheduledExecutorService(timer, workers);
        }, ses -> {
            ses.shutdownNow();
            cleanup.forEach(Runnable::run);
            cleanup.clear();
        });
    }

    private static Measurement run(final OrTimeoutChurn workload, final TimeoutSubject subject) {
        if (subject.jdk()) {
            return workload.run(subject.name(), future -> future.orTimeout(10, TimeUnit.SECONDS), () -> { });
        }
        Timer timer = subject.timers().get();
        return workload.run(subject.name(),
                future -> TimeoutFutures.orTimeout(future, 10, TimeUnit.SECONDS, timer), timer::stop);
    }

    private static void progress(final String workload, final String subject, final int round) {
        System.err.printf(Locale.ROOT, "%s round %d: %s%n", workload, round + 1, subject);
    }

    /** The median of each figure separately, so one noisy round moves none of them. */
    private static Measurement median(final List<Measurement> rounds) {
        Measurement first = rounds.get(0);
        return new Measurement(first.workload(), first.subject(), first.ops(),
                median(rounds, Measurement::wallNanos), median(rounds, Measurement::cpuNanos),
                median(rounds, Measurement::callerCpuNanos), median(rounds, Measurement::retainedBytes));
    }

    private static long median(final List<Measurement> rounds, final ToLongFunction<Measurement> figure) {
        long[] values = rounds.stream().mapToLong(figure).sorted().toArray();
        return values[values.length / 2];
    }

    private static void print(final List<Measurement> results) {
        System.out.printf(Locale.ROOT, "%-14s %-46s %11s %11s %11s %13s%n",
                "workload", "subject", "wall ns/op", "cpu ns/op", "caller cpu", "retained MiB");
        for (Measurement m : results) {
            System.out.printf(Locale.ROOT, "%-14s %-46s %11.1f %11.1f %11.1f %13.1f%n", m.workload(), m.subject(),
                    m.wallNanosPerOp(), m.cpuNanosPerOp(), m.callerCpuNanosPerOp(), m.retainedBytes() / 1048576.0);
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "%-14s %-46s %-34s %7s %7s %7s %9s%n",
                "ratio", "tickwheel subject", "peer (ratio = tickwheel / peer)", "wall", "cpu", "caller", "retained");
        for (Measurement ours : results) {
            if (!ours.subject().contains("Wheel")) {
                continue;
            }
            results.stream()
                    .filter(peer -> peer.workload().equals(ours.workload()) && !peer.subject().contains("Wheel"))
                    .sorted(Comparator.comparing(Measurement::subject))
                    .forEach(peer -> System.out.printf(Locale.ROOT, "%-14s %-46s %-34s %7.2f %7.2f %7.2f %9s%n",
                            ours.workload(), ours.subject(), peer.subject(),
                            ours.wallNanosPerOp() / peer.wallNanosPerOp(),
                            ours.cpuNanosPerOp() / peer.cpuNanosPerOp(),
                            ours.callerCpuNanosPerOp() / peer.callerCpuNanosPerOp(), retainedRatio(ours, peer)));
        }
    }

    /** A ratio of heaps only means something when the peer retains a measurable amount. */
    private static String retainedRatio(final Measurement ours, final Measurement peer) {
        if (peer.retainedBytes() < 256 * 1024) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.3f", (double) ours.retainedBytes() / peer.retainedBytes());
    }
}
