package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A timer whose {@code taskExecutor} refuses every task (a pool shut down under it, a saturated
 * pool with the abort policy) or throws an Error: the futures tickwheel builds on that timer
 * ({@code TimeoutFutures}, {@code WheelScheduledExecutorService}) still complete, since their
 * timer tasks only hand work on.
 */
class RefusingTaskExecutorTest {

    private static final long PATIENCE_SECONDS = 10;

    private Timer timer;
    private final ExecutorService workers = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "refusing-test-worker");
        thread.setDaemon(true);
        return thread;
    });

    @AfterEach
    void tearDown() {
        if (timer != null) {
            timer.stop();
        }
        workers.shutdownNow();
    }

    static List<Executor> refusingExecutors() {
        Executor refuses = task -> {
            throw new RejectedExecutionException("refused by the test");
        };
        Executor throwsError = task -> {
            throw new OutOfMemoryError("unable to create native thread: possibly out of memory");
        };
        return List.of(refuses, throwsError);
    }

    static List<Function<Executor, Timer>> timers() {
        return List.of(
                executor -> HierarchicalWheelTimer.builder().threadFactory(r -> new Thread(r, "refusing-test-timer"))
                        .tickDuration(Duration.ofMillis(1)).taskExecutor(executor).build(),
                executor -> HashedWheelTimer.builder().threadFactory(r -> new Thread(r, "refusing-test-timer"))
                        .tickDuration(Duration.ofMillis(1)).taskExecutor(executor).build());
    }

    static List<Object[]> cases() {
        return timers().stream().flatMap(t -> refusingExecutors().stream().map(e -> new Object[] {t, e})).toList();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void orTimeout_taskExecutorRefuses_futureStillTimesOut(final Function<Executor, Timer> make,
            final Executor refusing) {
        timer = make.apply(refusing);
        CompletableFuture<String> future = TimeoutFutures.orTimeout(new CompletableFuture<>(), 10,
                TimeUnit.MILLISECONDS, timer);

        assertThatThrownBy(() -> future.get(PATIENCE_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void completeOnTimeout_taskExecutorRefuses_futureStillCompletes(final Function<Executor, Timer> make,
            final Executor refusing) throws Exception {
        timer = make.apply(refusing);
        CompletableFuture<String> future = TimeoutFutures.completeOnTimeout(new CompletableFuture<>(), "fallback",
                10, TimeUnit.MILLISECONDS, timer);

        assertThat(future.get(PATIENCE_SECONDS, TimeUnit.SECONDS)).isEqualTo("fallback");
    }

    @ParameterizedTest
    @MethodSource("cases")
    void executorService_taskExecutorRefuses_delayedAndPeriodicTasksStillRun(final Function<Executor, Timer> make,
            final Executor refusing) throws Exception {
        timer = make.apply(refusing);
        WheelScheduledExecutorService executor = new WheelScheduledExecutorService(timer, workers);
        ScheduledFuture<String> delayed = executor.schedule(() -> "ran", 10, TimeUnit.MILLISECONDS);
        java.util.concurrent.CountDownLatch periodicRuns = new java.util.concurrent.CountDownLatch(3);
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(periodicRuns::countDown, 5, 5,
                TimeUnit.MILLISECONDS);

        assertThat(delayed.get(PATIENCE_SECONDS, TimeUnit.SECONDS)).isEqualTo("ran");
        assertThat(periodicRuns.await(PATIENCE_SECONDS, TimeUnit.SECONDS)).as("periodic runs").isTrue();
        periodic.cancel(false);
        executor.shutdown();
        assertThat(executor.awaitTermination(PATIENCE_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void stop_taskExecutorRefuses_pendingFuturesFailSayingWhy() {
        timer = HierarchicalWheelTimer.builder().threadFactory(r -> new Thread(r, "refusing-test-timer"))
                .taskExecutor(refusingExecutors().get(0)).build();
        CompletableFuture<String> future = TimeoutFutures.orTimeout(new CompletableFuture<>(), 1, TimeUnit.HOURS,
                timer);

        timer.stop();

        assertThatThrownBy(() -> future.get(PATIENCE_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
    }
}
