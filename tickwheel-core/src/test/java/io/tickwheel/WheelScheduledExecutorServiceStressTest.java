package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two threads each make 100k mixed schedule, submit, periodic and cancel calls; shutdown
 * lands in the middle and shutdownNow at the end. Afterwards every future must be final, every
 * task must have run exactly as often as the contract allows, and the timer must hold nothing.
 * The seed is printed and can be replayed with {@code -Dtickwheel.seed=...}.
 */
class WheelScheduledExecutorServiceStressTest {

    private static final int OPS_PER_THREAD = 100_000;

    /** What the test knows about one task. */
    private static final class Task implements Runnable {
        final boolean periodic;
        /** The run that throws (ending a periodic schedule), or 0. */
        final int failOnRun;
        final AtomicInteger runs = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        volatile boolean overlapped;
        volatile Future<?> future;
        volatile boolean rejected;
        /** Runs counted right after a cancel (by the test, or shutdown for periodic) returned; -1 if none. */
        volatile int runsAtCancel = -1;

        Task(final boolean periodic, final int failOnRun) {
            this.periodic = periodic;
            this.failOnRun = failOnRun;
        }

        @Override
        public void run() {
            int run = runs.incrementAndGet();
            if (running.incrementAndGet() != 1) {
                overlapped = true;
            }
            running.decrementAndGet();
            if (run == failOnRun) {
                throw new IllegalStateException("planned failure");
            }
        }

        void noteCancelled() {
            if (runsAtCancel < 0) {
                runsAtCancel = runs.get();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hierarchical", "hashed"})
    void mixedOperations_shutdownMidway_everyTaskRanAsAllowedAndEveryFutureIsFinal(final String wheel)
            throws Exception {
        long seed = Long.getLong("tickwheel.seed", new Random().nextLong());
        Timer timer = "hashed".equals(wheel)
                ? HashedWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build()
                : HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build();
        ExecutorService workers = Executors.newFixedThreadPool(2);
        WheelScheduledExecutorService ses = new WheelScheduledExecutorService(timer, workers);
        ConcurrentLinkedQueue<Task> tasks = new ConcurrentLinkedQueue<>();
        AtomicInteger opsDone = new AtomicInteger();
        try {
            List<Thread> threads = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (int t = 0; t < 2; t++) {
                SplittableRandom random = new SplittableRandom(seed + t);
                threads.add(new Thread(() -> operate(ses, random, tasks, opsDone, go), "stress-" + t));
            }
            threads.forEach(Thread::start);
            go.countDown();
            while (opsDone.get() < OPS_PER_THREAD && threads.stream().anyMatch(Thread::isAlive)) {
                Thread.onSpinWait();
            }
            ses.shutdown();
            for (Task task : tasks) { // every accepted task was queued here before it was scheduled
                if (task.periodic) {
                    task.noteCancelled();
                }
            }
            for (Thread thread : threads) {
                thread.join();
            }
            List<Runnable> neverStarted = ses.shutdownNow();

            assertThat(ses.awaitTermination(60, TimeUnit.SECONDS)).as("terminated, seed %d", seed).isTrue();
            verify(tasks, neverStarted, seed);
            assertThat(timer.pendingTimeouts()).as("timeouts left in the timer, seed %d", seed).isZero();
        } finally {
            ses.shutdownNow();
            workers.shutdownNow();
            timer.stop();
        }
    }

    private static void operate(final WheelScheduledExecutorService ses, final SplittableRandom random,
            final ConcurrentLinkedQueue<Task> all, final AtomicInteger opsDone, final CountDownLatch go) {
        List<Task> mine = new ArrayList<>();
        awaitQuietly(go);
        for (int op = 0; op < OPS_PER_THREAD; op++, opsDone.incrementAndGet()) {
            int kind = random.nextInt(100);
            if (kind < 20 && !mine.isEmpty()) {
                Task victim = mine.get(random.nextInt(mine.size()));
                Future<?> future = victim.future;
                if (future != null && future.cancel(random.nextBoolean())) {
                    victim.noteCancelled();
                }
                continue;
            }
            boolean periodic = kind >= 90;
            Task task = new Task(periodic, periodic && kind >= 98 ? 2 : 0);
            all.add(task);
            mine.add(task);
            try {
                if (kind < 55) {
                    task.future = ses.schedule(task, random.nextInt(4), TimeUnit.MILLISECONDS);
                } else if (kind < 80) {
                    task.future = ses.schedule(task, 1, TimeUnit.HOURS);
                } else if (kind < 90) {
                    task.future = ses.submit(task);
                } else if (kind < 95) {
                    task.future = ses.scheduleAtFixedRate(task, random.nextInt(10), 5 + random.nextInt(15),
                            TimeUnit.MILLISECONDS);
                } else {
                    task.future = ses.scheduleWithFixedDelay(task, random.nextInt(10), 5 + random.nextInt(15),
                            TimeUnit.MILLISECONDS);
                }
            } catch (RejectedExecutionException e) {
                task.rejected = true;
            }
        }
    }

    private static void verify(final ConcurrentLinkedQueue<Task> tasks, final List<Runnable> neverStarted,
            final long seed) {
        Set<Object> returned = Collections.newSetFromMap(new IdentityHashMap<>());
        returned.addAll(neverStarted);
        assertThat(returned).as("shutdownNow's list has no duplicates, seed %d", seed).hasSize(neverStarted.size());
        int matched = 0;
        for (Task task : tasks) {
            String what = (task.periodic ? "periodic" : "one-shot") + " task, seed " + seed;
            if (task.rejected) {
                assertThat(task.runs.get()).as("rejected " + what).isZero();
                continue;
            }
            ScheduledFuture<?> future = (ScheduledFuture<?>) task.future;
            assertThat(future.isDone()).as("future of " + what).isTrue();
            assertThat(task.overlapped).as("overlapping runs of " + what).isFalse();
            int runs = task.runs.get();
            if (returned.contains(future)) {
                matched++;
                assertThat(future.isCancelled()).as("returned by shutdownNow: " + what).isTrue();
                assertThat(task.periodic).as("periodic tasks were all cancelled by shutdown, seed " + seed).isFalse();
                assertThat(runs).as("runs of a never-started " + what).isZero();
            } else if (task.periodic) {
                assertThat(future.isCancelled() || task.failOnRun == runs).as("ended by cancel or failure: " + what)
                        .isTrue();
                assertThat(runs).as("runs after cancel of " + what).isLessThanOrEqualTo(task.runsAtCancel + 1);
            } else if (future.isCancelled()) {
                assertThat(runs).as("runs of a cancelled " + what).isLessThanOrEqualTo(1);
            } else {
                assertThat(runs).as("runs of a completed " + what).isEqualTo(1);
            }
        }
        assertThat(matched).as("every task shutdownNow returned is one of ours, seed %d", seed)
                .isEqualTo(neverStarted.size());
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
