package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** shutdown, shutdownNow and termination, from the JDK's ExecutorService documentation. */
class WheelScheduledExecutorServiceShutdownTest {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final long PATIENCE_MILLIS = PATIENCE.toMillis();

    private final Timer timer = HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build();
    /** One thread, so a test can see what the pool's thread looks like after our task. */
    private final ExecutorService workers = Executors.newSingleThreadExecutor();
    private final WheelScheduledExecutorService ses = new WheelScheduledExecutorService(timer, workers);

    @AfterEach
    void tearDown() {
        ses.shutdownNow();
        workers.shutdownNow();
        timer.stop();
    }

    @Test
    void shutdown_idle_terminatesAtOnce() throws Exception {
        assertThat(ses.isShutdown()).isFalse();
        assertThat(ses.isTerminated()).isFalse();

        ses.shutdown();

        assertThat(ses.isShutdown()).isTrue();
        assertThat(ses.isTerminated()).isTrue();
        assertThat(ses.awaitTermination(0, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void shutdown_pendingOneShot_stillRunsThenTerminates() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = ses.schedule(runs::incrementAndGet, 500, TimeUnit.MILLISECONDS);

        ses.shutdown();

        assertThat(ses.isTerminated()).isFalse();
        assertThat(ses.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(runs.get()).isEqualTo(1);
        assertThat(future.isDone()).isTrue();
        assertThat(future.isCancelled()).isFalse();
    }

    @Test
    void shutdown_periodicTasks_cancelledAndTimeoutsRemoved() throws Exception {
        ScheduledFuture<?> rate = ses.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS);
        ScheduledFuture<?> delay = ses.scheduleWithFixedDelay(() -> { }, 1, 1, TimeUnit.HOURS);

        ses.shutdown();

        assertThat(rate.isCancelled()).isTrue();
        assertThat(delay.isCancelled()).isTrue();
        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(ses.isTerminated()).isTrue();
    }

    @Test
    void shutdown_periodicMidRun_finishesThatRunThenStops() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = ses.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            started.countDown();
            awaitQuietly(release);
        }, 0, 1, TimeUnit.MILLISECONDS);
        assertThat(started.await(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();

        ses.shutdown();
        assertThat(ses.awaitTermination(50, TimeUnit.MILLISECONDS)).isFalse(); // the run is still going
        release.countDown();

        assertThat(ses.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(future.isCancelled()).isTrue();
        assertThat(runs.get()).isEqualTo(1);
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void shutdown_newTasks_rejectedByEveryMethod() {
        ses.shutdown();
        Runnable command = () -> { };
        Callable<String> callable = () -> "x";

        assertThatThrownBy(() -> ses.schedule(command, 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> ses.schedule(callable, 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> ses.scheduleAtFixedRate(command, 1, 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> ses.scheduleWithFixedDelay(command, 1, 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> ses.execute(command)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> ses.submit(callable)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> ses.invokeAll(List.of(callable))).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void shutdown_ownsNothing_workersAndTimerKeepWorking() throws Exception {
        ses.shutdown();

        assertThat(workers.isShutdown()).isFalse();
        assertThat(workers.submit(() -> "still running").get()).isEqualTo("still running");
        Timeout timeout = timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
        assertThat(timer.pendingTimeouts()).isEqualTo(1);
        timeout.cancel();
    }

    @Test
    void awaitTermination_taskStillPending_falseUntilItIsCancelled() throws Exception {
        ScheduledFuture<?> future = ses.schedule(() -> { }, 1, TimeUnit.HOURS);
        ses.shutdown();

        assertThat(ses.awaitTermination(30, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(ses.isTerminated()).isFalse();
        future.cancel(false);

        assertThat(ses.isTerminated()).isTrue();
        assertThat(ses.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
    }

    @Test
    void awaitTermination_waiterWithHugeTimeout_wokenWhenTheLastTaskLeaves() throws Exception {
        ScheduledFuture<?> future = ses.schedule(() -> { }, 1, TimeUnit.HOURS);
        ses.shutdown();
        AtomicBoolean result = new AtomicBoolean();
        // Long.MAX_VALUE days: the wait's deadline overflows, and the wait must still last.
        Thread waiter = new Thread(() -> {
            try {
                result.set(ses.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "termination-waiter");
        waiter.start();
        await().atMost(PATIENCE).until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
        assertThat(waiter.isAlive()).as("waiting while a task is left").isTrue();

        future.cancel(false);

        waiter.join(PATIENCE_MILLIS);
        assertThat(waiter.isAlive()).as("woken by termination").isFalse();
        assertThat(result.get()).isTrue();
    }

    @Test
    void awaitTermination_interrupted_throwsAndClearsTheFlag() throws Exception {
        ScheduledFuture<?> future = ses.schedule(() -> { }, 1, TimeUnit.HOURS);
        ses.shutdown();
        AtomicBoolean threw = new AtomicBoolean();
        AtomicBoolean flagAfter = new AtomicBoolean(true);
        Thread waiter = new Thread(() -> {
            try {
                ses.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                threw.set(true);
                flagAfter.set(Thread.currentThread().isInterrupted());
            }
        }, "interrupted-waiter");
        waiter.start();
        await().atMost(PATIENCE).until(() -> waiter.getState() == Thread.State.TIMED_WAITING);

        waiter.interrupt();

        waiter.join(PATIENCE_MILLIS);
        assertThat(waiter.isAlive()).isFalse();
        assertThat(threw.get()).isTrue();
        assertThat(flagAfter.get()).as("interrupt status after the exception").isFalse();
        assertThat(ses.isTerminated()).isFalse();
        future.cancel(false);
        assertThat(ses.isTerminated()).isTrue();
    }

    @Test
    void awaitTermination_timesOut_notBeforeItsTimeout() throws Exception {
        ScheduledFuture<?> future = ses.schedule(() -> { }, 1, TimeUnit.HOURS);
        ses.shutdown();
        long start = System.nanoTime();

        boolean terminated = ses.awaitTermination(50, TimeUnit.MILLISECONDS);

        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(terminated).isFalse();
        assertThat(elapsedMillis).as("waited its timeout, not less").isGreaterThanOrEqualTo(50);
        assertThat(elapsedMillis).as("and returned within reason").isLessThan(PATIENCE_MILLIS);
        assertThat(future.isDone()).as("the task waits on").isFalse();
    }

    @Test
    void shutdownNow_pendingTasks_returnsThemCancelledAndNoneRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> oneShot = ses.schedule(runs::incrementAndGet, 1, TimeUnit.HOURS);
        ScheduledFuture<?> periodic = ses.scheduleAtFixedRate(runs::incrementAndGet, 1, 1, TimeUnit.HOURS);
        ScheduledFuture<?> done = ses.schedule(() -> "done", 0, TimeUnit.MILLISECONDS);
        done.get();

        List<Runnable> neverStarted = ses.shutdownNow();

        assertThat(neverStarted).containsExactlyInAnyOrder((Runnable) oneShot, (Runnable) periodic);
        assertThat(oneShot.isCancelled()).isTrue();
        assertThat(periodic.isCancelled()).isTrue();
        assertThat(done.isCancelled()).isFalse();
        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(ses.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        neverStarted.forEach(Runnable::run); // running a returned task by hand must not run its body
        assertThat(runs.get()).isZero();
    }

    @Test
    void shutdownNow_periodicThatRanBefore_returnedWhileWaitingForNextRun() {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> periodic = ses.scheduleWithFixedDelay(runs::incrementAndGet, 0, 1, TimeUnit.HOURS);
        await().atMost(PATIENCE).until(() -> runs.get() == 1 && timer.pendingTimeouts() == 1);

        assertThat(ses.shutdownNow()).containsExactly((Runnable) periodic);
        assertThat(periodic.isCancelled()).isTrue();
    }

    @Test
    void shutdownNow_queuedBehindABusyWorker_returnedAndNeverStarts() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ses.execute(() -> {
            started.countDown();
            awaitQuietly(release);
        });
        assertThat(started.await(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        AtomicBoolean queuedRan = new AtomicBoolean();
        Future<?> queued = ses.submit(() -> queuedRan.set(true)); // waits in the single worker's queue

        List<Runnable> neverStarted = ses.shutdownNow();
        release.countDown();

        assertThat(neverStarted).containsExactly((Runnable) queued);
        assertThat(ses.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(workers.submit(() -> "drained").get()).isEqualTo("drained");
        assertThat(queuedRan.get()).isFalse();
        assertThat(queued.isCancelled()).isTrue();
    }

    @Test
    void shutdownNow_runningBody_isInterruptedAndTheInterruptDoesNotLeakToThePool() throws Exception {
        // A ForkJoinPool, unlike a ThreadPoolExecutor, does not clear interrupts between tasks.
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            WheelScheduledExecutorService onPool = new WheelScheduledExecutorService(timer, pool);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch nextQueued = new CountDownLatch(1);
            AtomicBoolean interrupted = new AtomicBoolean();
            Future<?> running = onPool.submit(() -> {
                started.countDown();
                try {
                    Thread.sleep(PATIENCE_MILLIS);
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    awaitQuietly(nextQueued); // so the pool's thread takes the next task straight after
                    Thread.currentThread().interrupt(); // left set on purpose: the executor must clear it
                }
            });
            assertThat(started.await(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();

            assertThat(onPool.shutdownNow()).isEmpty();
            Future<Boolean> next = pool.submit(() -> Thread.currentThread().isInterrupted());
            nextQueued.countDown();

            assertThat(next.get()).as("interrupt seen by the pool's next task").isFalse();
            assertThat(onPool.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
            assertThat(interrupted.get()).isTrue();
            assertThat(running.isCancelled()).isFalse();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shutdownNow_afterShutdown_stillReturnsPendingOneShots() {
        ScheduledFuture<?> oneShot = ses.schedule(() -> { }, 1, TimeUnit.HOURS);
        ses.shutdown();

        assertThat(ses.shutdownNow()).containsExactly((Runnable) oneShot);
        assertThat(ses.isTerminated()).isTrue();
        assertThat(ses.shutdownNow()).isEmpty();
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
