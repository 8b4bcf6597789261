package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Randomized multi-thread accounting: four threads schedule (0 to 20 ms, a few negative), cancel
 * earlier timeouts, and schedule tasks that themselves schedule and cancel, for at least a million
 * operations; then {@code stop()} is called while they are still scheduling. Every timeout whose
 * {@code newTimeout} returned must end exactly once: run once, or cancelled by the one
 * {@code cancel()} that returned true, or returned by {@code stop()}; never run, and no
 * {@code cancelled()} call, when {@code newTimeout} threw. Replay a seed with {@code -Dtickwheel.seed=}.
 */
class TimerStressTest {

    private static final int THREADS = 4;
    private static final long OPERATIONS = 1_000_000;
    private static final long MAX_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final int RECENT = 1024;

    static Stream<Arguments> timers() {
        return Stream.of(
                arguments("HashedWheelTimer 1 ms x 512", (Function<ThreadFactory, Timer>) factory ->
                        HashedWheelTimer.builder().threadFactory(factory).tickDuration(1, TimeUnit.MILLISECONDS)
                                .ticksPerWheel(512).slowTaskThreshold(Duration.ZERO).build(), false),
                arguments("HierarchicalWheelTimer 1 ms x 64", (Function<ThreadFactory, Timer>) factory ->
                        HierarchicalWheelTimer.builder().threadFactory(factory).tickDuration(Duration.ofMillis(1))
                                .slowTaskThreshold(Duration.ZERO).build(), false),
                // All but one timeout in 4,096 an hour out: cancels pile up, so purges (which take the
                // old part of the queue and leave the young) run while producers offer, and between
                // the full transfers the rare short timeouts make due.
                arguments("HierarchicalWheelTimer 1 ms x 64, churn of hour-long timeouts",
                        (Function<ThreadFactory, Timer>) factory -> HierarchicalWheelTimer.builder()
                                .threadFactory(factory).tickDuration(Duration.ofMillis(1))
                                .slowTaskThreshold(Duration.ZERO).build(), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("timers")
    void scheduleCancelThenStop_fourThreads_everyTimeoutEndsExactlyOnce(final String name,
            final Function<ThreadFactory, Timer> maker, final boolean hourLong) throws Exception {
        long seed = Long.getLong("tickwheel.seed", System.nanoTime());
        try (LogCapture log = LogCapture.of("io.tickwheel." + name.substring(0, name.indexOf(' ')))) {
            Run run = new Run(seed, hourLong, maker.apply(runnable -> {
                Thread thread = new Thread(runnable, "stress-worker");
                thread.setDaemon(true);
                return thread;
            }));
            StatsReader reader = new StatsReader(run.timer);
            reader.start();
            try {
                run.execute();
            } finally {
                run.timer.stop();
                reader.finish();
            }
            run.verify();
            assertThat(reader.problems).as("stats() read while the run went on, seed %d", seed).isEmpty();
            assertThat(reader.reads).as("stats() reads during the run").isPositive();
            // Nothing here throws or is refused: any WARNING or ERROR (a failed worker) is a bug. (The
            // slow-task check is off above: on a loaded machine a trivial task can be descheduled 100 ms.)
            assertThat(log.lines(Level.WARNING)).as("seed %d", seed).isEmpty();
            assertThat(log.lines(Level.SEVERE)).as("seed %d", seed).isEmpty();
        }
    }

    /** A task that counts what happens to it. Run on the worker; cancelled() on the cancelling thread. */
    static final class Tracked implements TimerTask {
        private static final AtomicIntegerFieldUpdater<Tracked> RUNS =
                AtomicIntegerFieldUpdater.newUpdater(Tracked.class, "runs");
        private static final AtomicIntegerFieldUpdater<Tracked> CANCELLED_CALLS =
                AtomicIntegerFieldUpdater.newUpdater(Tracked.class, "cancelledCalls");
        private static final AtomicIntegerFieldUpdater<Tracked> CANCEL_WINS =
                AtomicIntegerFieldUpdater.newUpdater(Tracked.class, "cancelWins");

        private final Run run;
        private final boolean chain;
        volatile int runs;
        volatile int cancelledCalls;
        volatile int cancelWins;
        /** Written by the verifying thread only, after stop() and the producers are done. */
        int stopReturns;
        volatile boolean accepted;

        Tracked(final Run run, final boolean chain) {
            this.run = run;
            this.chain = chain;
        }

        @Override
        public void run(final Timeout timeout) {
            RUNS.incrementAndGet(this);
            if (chain) {
                run.onChainRun(timeout);
            }
        }

        @Override
        public void cancelled(final Timeout timeout) {
            CANCELLED_CALLS.incrementAndGet(this);
        }

        void cancelWon() {
            CANCEL_WINS.incrementAndGet(this);
        }

        /** The one way this timeout ended, or null if the accounting is broken. */
        String outcome() {
            if (runs == 1 && cancelledCalls == 0 && cancelWins == 0 && stopReturns == 0) {
                return "ran";
            }
            if (runs == 0 && cancelledCalls == 1 && cancelWins == 1 && stopReturns == 0) {
                return "cancelled";
            }
            if (runs == 0 && cancelledCalls == 1 && cancelWins == 0 && stopReturns == 1) {
                return "stopped";
            }
            return null;
        }

        @Override
        public String toString() {
            return "Tracked(runs=" + runs + ", cancelled()=" + cancelledCalls + ", cancel() won=" + cancelWins
                    + ", returned by stop()=" + stopReturns + ", chain=" + chain + ")";
        }
    }

    /** One stress run: the timer, the producers' records, and the worker-confined chain records. */
    static final class Run {
        final long seed;
        /** Whether all but one timeout in 4,096 are an hour out. */
        final boolean hourLong;
        final Timer timer;
        final AtomicLong operations = new AtomicLong();
        final AtomicReferenceArray<Timeout> recent = new AtomicReferenceArray<>(RECENT);
        final Queue<String> problems = new ConcurrentLinkedQueue<>();
        final List<List<Tracked>> acceptedByThread = new ArrayList<>();
        final List<List<Tracked>> refusedByThread = new ArrayList<>();
        /** Worker thread only (tasks run there, one at a time); read after stop() joined the worker. */
        final SplittableRandom workerRandom;
        final List<Tracked> acceptedByTasks = new ArrayList<>();
        final List<Tracked> refusedByTasks = new ArrayList<>();
        Set<Timeout> stopped = Set.of();

        Run(final long seed, final boolean hourLong, final Timer timer) {
            this.seed = seed;
            this.hourLong = hourLong;
            this.timer = timer;
            this.workerRandom = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
        }

        void execute() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> producers = new ArrayList<>();
                for (int i = 0; i < THREADS; i++) {
                    List<Tracked> accepted = new ArrayList<>();
                    List<Tracked> refused = new ArrayList<>();
                    acceptedByThread.add(accepted);
                    refusedByThread.add(refused);
                    SplittableRandom random = new SplittableRandom(seed + i);
                    producers.add(pool.submit(() -> produce(random, accepted, refused)));
                }
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                long target = hourLong ? 5 * OPERATIONS : OPERATIONS;
                while (operations.get() < target && System.nanoTime() - deadline < 0 && problems.isEmpty()) {
                    Thread.sleep(5);
                }
                stopped = timer.stop();
                for (Future<?> producer : producers) {
                    producer.get(2, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }
        }

        /** Schedules and cancels until newTimeout throws IllegalStateException (the timer stopped). */
        private void produce(final SplittableRandom random, final List<Tracked> accepted, final List<Tracked> refused) {
            Timeout[] mine = new Timeout[256];
            long done = 0;
            try {
                while (true) {
                    int choice = random.nextInt(100);
                    if (choice < 62) {
                        Tracked task = new Tracked(this, choice >= 52);
                        Timeout timeout;
                        try {
                            timeout = timer.newTimeout(task, delayNanos(random), TimeUnit.NANOSECONDS);
                        } catch (IllegalStateException refusal) {
                            refused.add(task);
                            return;
                        }
                        task.accepted = true;
                        accepted.add(task);
                        int slot = random.nextInt(mine.length);
                        Timeout replaced = mine[slot];
                        mine[slot] = timeout;
                        if (hourLong) {
                            cancel(replaced); // churn: a new request timeout replaces an old one
                        }
                        recent.set(random.nextInt(RECENT), timeout);
                    } else if (choice < 98) {
                        cancel(mine[random.nextInt(mine.length)]);
                    } else if (timer.pendingTimeouts() < 0) {
                        problems.add("pendingTimeouts() < 0");
                    }
                    if (++done % 1024 == 0) {
                        operations.addAndGet(1024);
                    }
                }
            } catch (RuntimeException | Error e) {
                problems.add("producer failed: " + e);
            }
        }

        long delayNanos(final SplittableRandom random) {
            if (hourLong && random.nextInt(4096) != 0) {
                return TimeUnit.HOURS.toNanos(1) + random.nextLong(MAX_DELAY_NANOS);
            }
            return random.nextInt(50) == 0 ? -random.nextLong(MAX_DELAY_NANOS) : random.nextLong(MAX_DELAY_NANOS + 1);
        }

        static void cancel(final Timeout timeout) {
            // Read before cancel(): a completed cancel lets go of the task. If our cancel wins, no
            // other cancel completed before it, so this read saw the task.
            TimerTask task = timeout == null ? null : timeout.task();
            if (timeout != null && timeout.cancel()) {
                ((Tracked) task).cancelWon();
            }
        }

        /** A chain task, on the worker: schedule one more, and cancel a recent one. */
        void onChainRun(final Timeout self) {
            Tracked child = new Tracked(this, workerRandom.nextInt(4) == 0);
            try {
                Timeout timeout = self.timer().newTimeout(child, delayNanos(workerRandom), TimeUnit.NANOSECONDS);
                child.accepted = true;
                acceptedByTasks.add(child);
                recent.set(workerRandom.nextInt(RECENT), timeout);
            } catch (IllegalStateException refusal) {
                refusedByTasks.add(child);
            }
            cancel(recent.get(workerRandom.nextInt(RECENT)));
        }

        void verify() {
            String seedText = "seed " + seed + " (replay with -Dtickwheel.seed=" + seed + ")";
            assertThat(problems).as(seedText).isEmpty();
            assertThat(operations.get()).as(seedText).isGreaterThanOrEqualTo(OPERATIONS);
            List<String> broken = new ArrayList<>();
            for (Timeout timeout : stopped) {
                Tracked task = (Tracked) timeout.task();
                task.stopReturns++;
                if (!task.accepted) {
                    broken.add("stop() returned a timeout whose newTimeout threw: " + task);
                }
            }
            long[] outcomes = new long[3];
            List<Tracked> accepted = new ArrayList<>(acceptedByTasks);
            acceptedByThread.forEach(accepted::addAll);
            for (Tracked task : accepted) {
                String outcome = task.outcome();
                if (outcome == null) {
                    broken.add(task.toString());
                } else {
                    outcomes[List.of("ran", "cancelled", "stopped").indexOf(outcome)]++;
                }
            }
            List<Tracked> refused = new ArrayList<>(refusedByTasks);
            refusedByThread.forEach(refused::addAll);
            for (Tracked task : refused) {
                if (task.runs + task.cancelledCalls + task.cancelWins + task.stopReturns != 0) {
                    broken.add("refused by newTimeout, yet: " + task);
                }
            }
            assertThat(broken.size()).as("%s: timeouts that did not end exactly once, of %d (ran %d, cancelled %d,"
                    + " stopped %d); the first: %s", seedText, accepted.size(), outcomes[0], outcomes[1], outcomes[2],
                    broken.subList(0, Math.min(20, broken.size()))).isZero();
            assertThat(outcomes).as("%s: every ending (ran, cancelled, stopped) exercised", seedText)
                    .doesNotContain(0L);
            assertThat(refusedByThread).as(seedText).allSatisfy(list -> assertThat(list).hasSize(1));
            assertThat(outcomes[2]).as(seedText).isEqualTo(stopped.size());
            assertThat(timer.pendingTimeouts()).as(seedText).isZero();
            verifyStats(seedText, accepted.size(), refused.size(), outcomes);
        }

        /**
         * The counters agree with what the tasks saw. A newTimeout refused because it raced stop()
         * may have been offered first: then it counts as scheduled and cancelled, never as accepted.
         */
        private void verifyStats(final String seedText, final long accepted, final long refused,
                final long[] outcomes) {
            TimerStats stats = StatsReader.stats(timer);
            long racedStop = stats.scheduled() - accepted;
            assertThat(stats.pending()).as(seedText).isZero();
            assertThat(stats.scheduled()).as("%s: %s", seedText, stats)
                    .isEqualTo(stats.expired() + stats.cancelled() + stats.pending());
            assertThat(stats.expired()).as(seedText).isEqualTo(outcomes[0]);
            assertThat(stats.cancelled()).as("%s: cancel() wins, stop()'s set, refused racers", seedText)
                    .isEqualTo(outcomes[1] + outcomes[2] + racedStop);
            assertThat(racedStop).as(seedText).isBetween(0L, refused);
            assertThat(stats.taskTime().count()).as(seedText).isEqualTo(stats.expired());
            assertThat(stats.taskFailures() + stats.executorRejections() + stats.rejected()).as(seedText).isZero();
        }
    }
}
