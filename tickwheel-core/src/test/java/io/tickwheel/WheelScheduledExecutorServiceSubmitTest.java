package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ExecutorService half of the contract: execute, submit, invokeAll and invokeAny. */
class WheelScheduledExecutorServiceSubmitTest {

    private static final long PATIENCE_MILLIS = Duration.ofSeconds(20).toMillis();

    private final Timer timer = HierarchicalWheelTimer.builder()
            .threadFactory(runnable -> new Thread(runnable, "timer-thread"))
            .tickDuration(Duration.ofMillis(1))
            .build();
    private final ExecutorService workers =
            Executors.newFixedThreadPool(2, runnable -> new Thread(runnable, "workers"));
    private final WheelScheduledExecutorService ses = new WheelScheduledExecutorService(timer, workers);

    @AfterEach
    void tearDown() {
        ses.shutdownNow();
        workers.shutdownNow();
        timer.stop();
    }

    @Test
    void execute_command_runsOnWorkers() throws Exception {
        AtomicReference<String> thread = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);

        ses.execute(() -> {
            thread.set(Thread.currentThread().getName());
            ran.countDown();
        });

        assertThat(ran.await(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(thread.get()).isEqualTo("workers");
    }

    @Test
    void submit_eachForm_futureCompletesWithItsResult() throws Exception {
        Future<?> runnable = ses.submit(() -> { });
        Future<String> withResult = ses.submit(() -> { }, "given");
        Future<String> callable = ses.submit(() -> "called");

        assertThat(runnable.get()).isNull();
        assertThat(withResult.get()).isEqualTo("given");
        assertThat(callable.get()).isEqualTo("called");
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void submit_callableThrows_getThrowsExecutionExceptionWithCause() {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        Future<String> future = ses.submit(() -> {
            throw boom;
        });

        assertThatThrownBy(future::get).isInstanceOf(ExecutionException.class).hasCause(boom);
    }

    @Test
    void invokeAll_tasks_allDoneInTaskOrder() throws Exception {
        List<Callable<Integer>> tasks = List.of(() -> 1, () -> 2, () -> 3);

        List<Future<Integer>> futures = ses.invokeAll(tasks);

        assertThat(futures).hasSize(3).allMatch(Future::isDone);
        assertThat(futures.get(0).get()).isEqualTo(1);
        assertThat(futures.get(1).get()).isEqualTo(2);
        assertThat(futures.get(2).get()).isEqualTo(3);
    }

    @Test
    void invokeAll_timeoutBeforeAllDone_cancelsTheUnfinished() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        List<Callable<String>> tasks = List.of(() -> "quick", () -> {
            never.await();
            return "slow";
        });

        List<Future<String>> futures = ses.invokeAll(tasks, 1, TimeUnit.SECONDS);

        assertThat(futures).allMatch(Future::isDone);
        assertThat(futures.get(1).isCancelled()).isTrue();
        if (!futures.get(0).isCancelled()) { // on a starved machine even the quick one may miss it
            assertThat(futures.get(0).get()).isEqualTo("quick");
        }
    }

    @Test
    void invokeAny_oneSucceeds_returnsItsResult() throws Exception {
        List<Callable<String>> tasks = List.of(() -> {
            throw new IllegalStateException("first fails");
        }, () -> "second");

        assertThat(ses.invokeAny(tasks)).isEqualTo("second");
        assertThat(ses.invokeAny(tasks, PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo("second");
    }

    @Test
    void invokeAny_allFail_throwsExecutionException() {
        List<Callable<String>> tasks = List.of(() -> {
            throw new IllegalStateException("fails");
        });

        assertThatThrownBy(() -> ses.invokeAny(tasks))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void toString_lifecycle_saysTheState() throws Exception {
        assertThat(ses.toString()).contains("Running");
        ses.shutdown();
        assertThat(ses.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(ses.toString()).contains("Terminated");
    }
}
