package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.testing.StackEdge;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real {@link StackOverflowError} at every depth of {@code WheelScheduledExecutorService}'s
 * schedule and cancel paths (see {@link StackEdge}). Neither may leave the executor wedged (a
 * registry lock held by nobody, so every later cancel, shutdown and the timer's own stop() block
 * for good) or unable to terminate (a task registered that nobody holds and nothing will run),
 * and a schedule call that threw must not run its task.
 *
 * <p>Every wait here is bounded and made on a helper thread where it could block, so a wedge
 * fails the test instead of hanging it.
 */
class ExecutorStackOverflowTest {

    private static final int ROUNDS = 40;
    private static final long PATIENCE_SECONDS = 10;

    private final HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder()
            .threadFactory(r -> daemon(r, "executor-overflow-timer")).tickDuration(Duration.ofMillis(1)).build();
    /**
     * Not a JDK pool: with no delay the task is handed to the workers on the deep stack, and a
     * {@code ThreadPoolExecutor}'s queue lock is itself left held by an overflow inside its offer
     * (seen here: the pool's threads and its shutdownNow() blocked for good). The executor cannot
     * make its caller's workers safe; these are, so the test sees only the executor's own paths.
     */
    private final PollingWorkers workers = new PollingWorkers();

    @AfterEach
    void tearDown() throws Exception {
        workers.stop();
        assertThat(callWithin(timer::stop)).as("the timer's stop() returns").isNotNull();
    }

    private static Thread daemon(final Runnable r, final String name) {
        Thread thread = new Thread(r, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Calls {@code call} on a helper thread and fails if it has not returned within the patience. */
    private static <T> T callWithin(final java.util.concurrent.Callable<T> call) throws InterruptedException {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread helper = daemon(() -> {
            try {
                result.set(call.call());
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "executor-overflow-caller");
        helper.start();
        helper.join(TimeUnit.SECONDS.toMillis(PATIENCE_SECONDS));
        assertThat(helper.isAlive()).as("still blocked after %d s: the executor is wedged", PATIENCE_SECONDS)
                .isFalse();
        assertThat(failure.get()).as("failure of the call").isNull();
        return result.get();
    }

    /**
     * shutdown() first, so that each cancel is the one that may find the registry empty and
     * terminate the executor; then a cancel at every depth. Before the fix, an overflow inside the
     * registry lock's lock or unlock left it held: the next cancel blocked forever.
     */
    @Test
    void cancelAfterShutdown_stackOverflowsAtEveryDepth_executorTerminatesAndTimerStops() throws Exception {
        long overflows = 0;
        for (int round = 0; round < ROUNDS; round++) {
            WheelScheduledExecutorService executor = new WheelScheduledExecutorService(timer, workers);
            List<ScheduledFuture<?>> futures = new ArrayList<>();
            for (int i = 0; i < StackEdge.MAX_CALLS; i++) {
                futures.add(executor.schedule(() -> { }, 1, TimeUnit.HOURS));
            }
            executor.shutdown();
            CancelSweep sweep = new CancelSweep(futures.toArray(new ScheduledFuture<?>[0]), false);
            StackEdge.sweepOnNewThread(sweep, "executor-overflow-cancel-sweep");
            overflows += sweep.overflows;

            String what = "round " + round;
            // A cancel that threw may or may not have cancelled; doing it again is a no-op or finishes it.
            assertThat(callWithin(() -> {
                futures.forEach(future -> future.cancel(false));
                return executor.awaitTermination(PATIENCE_SECONDS, TimeUnit.SECONDS);
            })).as(what + ": terminated once every task is cancelled").isTrue();
            assertThat(executor.isTerminated()).as(what).isTrue();
            assertThat(callWithin(executor::shutdownNow)).as(what + ": nothing left registered").isEmpty();
            assertThat(futures).as(what).allMatch(ScheduledFuture::isCancelled);
        }
        assertThat(overflows).as("cancel calls that overflowed the stack").isGreaterThan(ROUNDS);
    }

    /**
     * A schedule at every depth: a call that returned a future has registered a task that runs once;
     * a call that threw leaves nothing registered, and its task never runs unless it had no delay
     * and the workers started it before the Error reached the caller; so once every returned task
     * has run the executor terminates on shutdown().
     */
    @Test
    void schedule_stackOverflowsAtEveryDepth_thrownCallsNeverRunAndExecutorTerminates() throws Exception {
        long overflows = 0;
        for (int round = 0; round < ROUNDS; round++) {
            WheelScheduledExecutorService executor = new WheelScheduledExecutorService(timer, workers);
            AtomicInteger ran = new AtomicInteger();
            ScheduleSweep sweep = new ScheduleSweep(executor, ran, round % 2 == 0 ? 0 : 50);
            StackEdge.sweepOnNewThread(sweep, "executor-overflow-schedule-sweep");
            overflows += sweep.overflows;

            String what = "round " + round + ", delay " + sweep.delayMillis + " ms, " + sweep.accepted + " accepted";
            assertThat(callWithin(() -> {
                for (int i = 0; i < sweep.accepted; i++) {
                    sweep.futures[i].get(PATIENCE_SECONDS, TimeUnit.SECONDS);
                }
                executor.shutdown();
                return executor.awaitTermination(PATIENCE_SECONDS, TimeUnit.SECONDS);
            })).as(what + ": terminated after every accepted task ran").isTrue();
            // A task whose schedule call threw after arming it would have run by now.
            Thread.sleep(100);
            if (sweep.delayMillis > 0) {
                assertThat(ran.get()).as(what + ": runs").isEqualTo(sweep.accepted);
            } else {
                // No delay: the workers may have started a body before the Error reached the caller.
                assertThat(ran.get()).as(what + ": runs")
                        .isBetween(sweep.accepted, sweep.accepted + (int) sweep.overflows);
            }
        }
        assertThat(overflows).as("schedule calls that overflowed the stack").isGreaterThan(ROUNDS);
    }

    /**
     * Workers a stack overflow in {@code execute} cannot wedge: the hand-over is one lock-free
     * offer, and the thread polls in short spells instead of waiting to be woken.
     */
    private static final class PollingWorkers extends java.util.concurrent.AbstractExecutorService {
        private final java.util.concurrent.ConcurrentLinkedQueue<Runnable> queue =
                new java.util.concurrent.ConcurrentLinkedQueue<>();
        private volatile boolean stopped;
        private final Thread thread = daemon(this::loop, "executor-overflow-worker");

        PollingWorkers() {
            thread.start();
        }

        private void loop() {
            while (!stopped) {
                Runnable next = queue.poll();
                if (next == null) {
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                } else {
                    next.run();
                }
            }
        }

        void stop() throws InterruptedException {
            stopped = true;
            thread.join(TimeUnit.SECONDS.toMillis(PATIENCE_SECONDS));
        }

        @Override
        public void execute(final Runnable command) {
            queue.offer(command);
        }

        @Override
        public void shutdown() {
            stopped = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            stopped = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return stopped;
        }

        @Override
        public boolean isTerminated() {
            return !thread.isAlive();
        }

        @Override
        public boolean awaitTermination(final long timeout, final TimeUnit unit) throws InterruptedException {
            thread.join(unit.toMillis(timeout));
            return !thread.isAlive();
        }
    }

    /**
     * cancel(true) at every depth, on tasks whose bodies are running. FutureTask's own interrupt
     * path, cut short by an overflow, left its state INTERRUPTING for good: the body's run then
     * spun on it forever and the executor never terminated, not even after shutdownNow()
     * (found by review, 2026-11-28).
     */
    @Test
    void cancelTrueOnRunningBodies_stackOverflowsAtEveryDepth_everyRunEndsAndExecutorTerminates()
            throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool(
                r -> daemon(r, "executor-overflow-pool"));
        try {
            long overflows = 0;
            for (int round = 0; round < ROUNDS / 8; round++) {
                WheelScheduledExecutorService executor = new WheelScheduledExecutorService(timer, pool);
                int n = StackEdge.MAX_CALLS;
                java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(n);
                java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
                AtomicInteger ended = new AtomicInteger();
                java.util.concurrent.atomic.AtomicIntegerArray interrupted =
                        new java.util.concurrent.atomic.AtomicIntegerArray(n);
                List<ScheduledFuture<?>> futures = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    int body = i;
                    futures.add(executor.schedule(() -> {
                        started.countDown();
                        while (true) {
                            try {
                                if (release.await(1, TimeUnit.MILLISECONDS)) {
                                    break;
                                }
                            } catch (InterruptedException interruptedByCancel) {
                                interrupted.set(body, 1); // and runs on until released
                            }
                        }
                        ended.incrementAndGet();
                    }, 0, TimeUnit.MILLISECONDS));
                }
                assertThat(started.await(PATIENCE_SECONDS, TimeUnit.SECONDS)).as("every body running").isTrue();
                CancelSweep sweep = new CancelSweep(futures.toArray(new ScheduledFuture<?>[0]), true);
                StackEdge.sweepOnNewThread(sweep, "executor-overflow-cancel-true-sweep");
                overflows += sweep.overflows;
                String what = "round " + round;
                int reached = 0;
                boolean[] retried = new boolean[n];
                try {
                    for (int i = 0; i < n; i++) {
                        retried[i] = futures.get(i).cancel(true); // a retry finishes a cut-short one
                    }
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
                    while (reached < n && System.nanoTime() < until) {
                        Thread.sleep(5);
                        reached = 0;
                        for (int i = 0; i < n; i++) {
                            reached += interrupted.get(i);
                        }
                    }
                } finally {
                    release.countDown();
                }
                assertThat(reached).as(what + ": running bodies interrupted; " + missed(interrupted, retried, sweep))
                        .isEqualTo(n);

                assertThat(callWithin(() -> {
                    executor.shutdown();
                    return executor.awaitTermination(PATIENCE_SECONDS, TimeUnit.SECONDS);
                })).as(what + ": terminated once every body ended").isTrue();
                assertThat(ended.get()).as(what + ": bodies that ran to their end").isEqualTo(n);
                assertThat(futures).as(what).allMatch(ScheduledFuture::isCancelled);
            }
            assertThat(overflows).as("cancel(true) calls that overflowed the stack").isPositive();
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * cancel at every depth while a thread waits in get() on each future: every waiter is released.
     * FutureTask wakes its waiters with calls made after the state is set, so an overflow among
     * them left waiters asleep for good on a cancelled future (5 to 16 per round; found by review,
     * 2026-11-28); get() now waits in spells.
     */
    @Test
    void cancel_stackOverflowsAtEveryDepth_everyGetWaiterIsReleased() throws Exception {
        long overflows = 0;
        for (int round = 0; round < ROUNDS / 8; round++) {
            WheelScheduledExecutorService executor = new WheelScheduledExecutorService(timer, workers);
            List<ScheduledFuture<?>> futures = new ArrayList<>();
            List<Thread> waiters = new ArrayList<>();
            AtomicInteger cancelledSeen = new AtomicInteger();
            for (int i = 0; i < StackEdge.MAX_CALLS; i++) {
                ScheduledFuture<?> future = executor.schedule(() -> { }, 1, TimeUnit.HOURS);
                futures.add(future);
                Thread waiter = daemon(() -> {
                    try {
                        future.get();
                    } catch (java.util.concurrent.CancellationException expected) {
                        cancelledSeen.incrementAndGet();
                    } catch (Exception unexpected) {
                        // counted by its absence from cancelledSeen
                    }
                }, "executor-overflow-get-waiter");
                waiter.start();
                waiters.add(waiter);
            }
            for (Thread waiter : waiters) {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
                while (waiter.getState() != Thread.State.TIMED_WAITING && waiter.getState() != Thread.State.WAITING
                        && System.nanoTime() < until) {
                    Thread.sleep(1);
                }
            }
            CancelSweep sweep = new CancelSweep(futures.toArray(new ScheduledFuture<?>[0]), false);
            StackEdge.sweepOnNewThread(sweep, "executor-overflow-cancel-sweep");
            overflows += sweep.overflows;
            futures.forEach(future -> future.cancel(false));

            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
            for (Thread waiter : waiters) {
                waiter.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
            }
            long blocked = waiters.stream().filter(Thread::isAlive).count();
            assertThat(blocked).as("round %d: get() waiters still blocked on a cancelled future", round).isZero();
            assertThat(cancelledSeen.get()).as("round %d: waiters told it was cancelled", round)
                    .isEqualTo(StackEdge.MAX_CALLS);
            assertThat(callWithin(executor::shutdownNow)).isEmpty();
        }
        assertThat(overflows).as("cancel calls that overflowed the stack").isPositive();
    }

    /** Cancels the next future at each level; written by the sweeping thread, read after its join. */
    /**
     * What a failure must tell (a full-suite run once saw 34 bodies never interrupted, never since): how far the
     * sweep got, and for each body not interrupted whether the sweep reached it and what the retry returned.
     */
    private static String missed(final java.util.concurrent.atomic.AtomicIntegerArray interrupted,
            final boolean[] retried, final CancelSweep sweep) {
        StringBuilder text = new StringBuilder("the sweep reached ").append(sweep.next).append(" futures, ")
                .append(sweep.overflows).append(" of its calls overflowed; not interrupted (index: swept, retry):");
        for (int i = 0; i < retried.length; i++) {
            if (interrupted.get(i) == 0) {
                text.append(' ').append(i).append(':').append(i < sweep.next).append(',').append(retried[i]);
            }
        }
        return text.toString();
    }

    private static final class CancelSweep implements Runnable {
        private final ScheduledFuture<?>[] futures;
        private final boolean interrupt;
        private int next;
        long overflows;

        CancelSweep(final ScheduledFuture<?>[] futures, final boolean interrupt) {
            this.futures = futures;
            this.interrupt = interrupt;
        }

        @Override
        public void run() {
            if (next == futures.length) {
                return;
            }
            try {
                futures[next++].cancel(interrupt);
            } catch (StackOverflowError e) {
                overflows++;
            }
        }
    }

    /** Schedules a counting task at each level; written by the sweeping thread, read after its join. */
    private static final class ScheduleSweep implements Runnable {
        private final WheelScheduledExecutorService executor;
        private final Runnable body;
        final long delayMillis;
        final ScheduledFuture<?>[] futures = new ScheduledFuture<?>[StackEdge.MAX_CALLS + 1];
        int accepted;
        long overflows;

        ScheduleSweep(final WheelScheduledExecutorService executor, final AtomicInteger ran, final long delayMillis) {
            this.executor = executor;
            this.body = ran::incrementAndGet;
            this.delayMillis = delayMillis;
        }

        @Override
        public void run() {
            try {
                futures[accepted] = executor.schedule(body, delayMillis, TimeUnit.MILLISECONDS);
                accepted++;
            } catch (StackOverflowError e) {
                overflows++;
            }
        }
    }
}
