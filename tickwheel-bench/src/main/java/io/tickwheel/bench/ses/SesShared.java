package io.tickwheel.bench.ses;

import io.tickwheel.HierarchicalWheelTimer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link SesRounds}' workload from several threads at once on one shared executor: the request
 * threads of a service that all arm their timeouts on the same {@code ScheduledExecutorService}.
 * Each thread keeps its own {@code outstanding} tasks (10-60 s delays, so none fires), and each of
 * its operations cancels its oldest and schedules one. Reported per round: process CPU per
 * operation over all threads, and wall time per operation per thread. One subject per JVM, so run
 * it alternately for A/B comparisons.
 *
 * <p>Usage: {@code SesShared wheel|stpe [threads [rounds]]} (default 2 threads, 7 rounds); prints
 * each round, then the mean of all but the first two.
 *
 * <p>Threading: {@link #main} runs on one thread and starts the churning threads itself.
 */
public final class SesShared {

    private static final int OPS_PER_THREAD = 2_000_000;
    private static final int OUTSTANDING_PER_THREAD = 5_000;
    private static final int WARM_UP_ROUNDS = 2;

    private SesShared() {
    }

    /**
     * Runs the rounds and prints them.
     *
     * @param args the subject, then optionally the thread count and the number of rounds
     * @throws InterruptedException if interrupted while waiting for the threads
     */
    public static void main(final String[] args) throws InterruptedException {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: SesShared wheel|stpe [threads [rounds]]");
        }
        SesComparison.SesSubject subject = switch (args[0]) {
            case "wheel" -> SesComparison.wheel("WheelSES on HierarchicalWheelTimer 1ms",
                    () -> HierarchicalWheelTimer.builder().build());
            case "stpe" -> SesComparison.stpe("STPE(1)", false);
            default -> throw new IllegalArgumentException("unknown subject: " + args[0]);
        };
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        if (threads < 1 || rounds <= WARM_UP_ROUNDS) {
            throw new IllegalArgumentException("need threads >= 1 and rounds > " + WARM_UP_ROUNDS);
        }
        double sum = 0;
        for (int round = 1; round <= rounds; round++) {
            ScheduledExecutorService ses = subject.factory().get();
            Probe.settledHeapBytes();
            long[] cpuAndWall = churnFromThreads(ses, threads);
            subject.close().accept(ses);
            long cpu = cpuAndWall[0];
            long wall = cpuAndWall[1];
            double cpuPerOp = cpu / ((double) threads * OPS_PER_THREAD);
            System.out.printf(Locale.ROOT, "round %d: %.1f process CPU ns/op, %.1f wall ns/op per thread%n",
                    round, cpuPerOp, wall / (double) OPS_PER_THREAD);
            if (round > WARM_UP_ROUNDS) {
                sum += cpuPerOp;
            }
        }
        System.out.printf(Locale.ROOT, "%s, %d threads, mean of rounds %d-%d: %.1f process CPU ns/op%n",
                args[0], threads, WARM_UP_ROUNDS + 1, rounds, sum / (rounds - WARM_UP_ROUNDS));
    }

    /**
     * Starts {@code threads} churning threads together and waits for all of them.
     *
     * @return process CPU and wall nanoseconds from their start to the last one's end, read while
     *     they are all still alive (the process figure sums live threads' times)
     */
    private static long[] churnFromThreads(final ScheduledExecutorService ses, final int threads)
            throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(threads);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    churn(ses, seed);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    finished.countDown();
                }
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "ses-shared-" + t);
            thread.start();
            started.add(thread);
        }
        long cpuBefore = Probe.processCpuNanos();
        long wallBefore = System.nanoTime();
        start.countDown();
        finished.await();
        long wall = System.nanoTime() - wallBefore;
        long cpu = Probe.processCpuNanos() - cpuBefore;
        release.countDown();
        for (Thread thread : started) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a churning thread failed", failure.get());
        }
        return new long[] {cpu, wall};
    }

    /** One thread's part: its own ring of outstanding tasks, oldest cancelled first. */
    private static void churn(final ScheduledExecutorService ses, final long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ScheduledFuture<?>[] ring = new ScheduledFuture<?>[OUTSTANDING_PER_THREAD];
        for (int i = 0; i < ring.length; i++) {
            ring[i] = ses.schedule(SesShared::neverRuns, delayMillis(random), TimeUnit.MILLISECONDS);
        }
        for (int i = 0; i < OPS_PER_THREAD; i++) {
            int slot = i % ring.length;
            ring[slot].cancel(false);
            ring[slot] = ses.schedule(SesShared::neverRuns, delayMillis(random), TimeUnit.MILLISECONDS);
        }
        for (ScheduledFuture<?> task : ring) {
            task.cancel(false);
        }
    }

    private static long delayMillis(final SplittableRandom random) {
        return 10_000L + random.nextInt(50_000);
    }

    /** The task body; every task is cancelled long before its delay. */
    private static void neverRuns() {
        // nothing: only scheduling and cancelling are measured
    }
}
