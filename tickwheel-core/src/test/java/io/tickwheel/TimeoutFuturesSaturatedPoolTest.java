package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code TimeoutFutures} while {@link ForkJoinPool#commonPool()} is saturated by blocking tasks
 * (the usual {@code supplyAsync(blocking).orTimeout(...)}): the timeout still completes the
 * future within the timer's lateness bound, and not on the timer's worker thread.
 */
class TimeoutFuturesSaturatedPoolTest {

    /** Generous for a loaded machine, yet far below "whenever the pool frees up". */
    private static final long BOUND_MILLIS = 1_000;
    private static final long DELAY_MILLIS = 50;

    private final Timer timer = HierarchicalWheelTimer.builder()
            .threadFactory(runnable -> new Thread(runnable, "saturated-test-timer"))
            .tickDuration(Duration.ofMillis(1)).build();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void tearDown() {
        release.countDown();
        timer.stop();
    }

    /** Occupies every thread of the common pool until the test ends. */
    private void saturateCommonPool() throws InterruptedException {
        int threads = ForkJoinPool.commonPool().getParallelism();
        CountDownLatch started = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            ForkJoinPool.commonPool().execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertThat(started.await(10, TimeUnit.SECONDS)).as("every common-pool thread blocked").isTrue();
    }

    @Test
    void orTimeout_commonPoolSaturated_failsWithinTheLatenessBoundOffTheWorker() throws Exception {
        saturateCommonPool();
        CompletableFuture<String> future = new CompletableFuture<>();
        AtomicReference<String> dependentThread = new AtomicReference<>();
        CompletableFuture<Void> dependent = future.handle((v, t) -> {
            dependentThread.set(Thread.currentThread().getName());
            return null;
        });
        long start = System.nanoTime();

        assertThat(TimeoutFutures.orTimeout(future, DELAY_MILLIS, TimeUnit.MILLISECONDS, timer)).isSameAs(future);

        assertThatThrownBy(() -> future.get(DELAY_MILLIS + BOUND_MILLIS, TimeUnit.MILLISECONDS))
                .as("done within %d ms of its deadline", BOUND_MILLIS)
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
        long elapsed = System.nanoTime() - start;
        assertThat(elapsed).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(DELAY_MILLIS));
        dependent.get(BOUND_MILLIS, TimeUnit.MILLISECONDS);
        assertThat(dependentThread.get()).isNotEqualTo("saturated-test-timer");
    }

    @Test
    void completeOnTimeout_commonPoolSaturated_completesWithinTheLatenessBound() throws Exception {
        saturateCommonPool();
        CompletableFuture<String> future = new CompletableFuture<>();

        assertThat(TimeoutFutures.completeOnTimeout(future, "fallback", DELAY_MILLIS, TimeUnit.MILLISECONDS, timer))
                .isSameAs(future);

        assertThat(future.get(DELAY_MILLIS + BOUND_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo("fallback");
    }
}
