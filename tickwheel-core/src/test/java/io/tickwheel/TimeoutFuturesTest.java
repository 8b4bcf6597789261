package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** orTimeout and completeOnTimeout, from the JDK's CompletableFuture documentation of both. */
class TimeoutFuturesTest {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final Timer timer = HierarchicalWheelTimer.builder()
            .threadFactory(runnable -> new Thread(runnable, "timer-thread"))
            .tickDuration(Duration.ofMillis(1))
            .build();

    @AfterEach
    void tearDown() {
        timer.stop();
    }

    @Test
    void orTimeout_notCompletedInTime_failsWithTimeoutExceptionNeverBeforeDelay() {
        CompletableFuture<String> future = new CompletableFuture<>();
        CompletableFuture<Long> failedAt = future.handle((value, failure) -> System.nanoTime());
        long start = System.nanoTime();

        assertThat(TimeoutFutures.orTimeout(future, 50, TimeUnit.MILLISECONDS, timer)).isSameAs(future);

        assertThatThrownBy(() -> future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
        assertThat(failedAt.join() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
    }

    @Test
    void orTimeout_completedInTime_keepsItsValueAndCancelsTheTimeoutAtOnce() throws Exception {
        CompletableFuture<String> future = new CompletableFuture<>();
        assertThat(TimeoutFutures.orTimeout(future, 1, TimeUnit.HOURS, timer)).isSameAs(future);
        assertThat(timer.pendingTimeouts()).isEqualTo(1);

        future.complete("in time");

        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(future.get()).isEqualTo("in time");
    }

    @Test
    void orTimeout_failedOrCancelledInTime_cancelsTheTimeoutAtOnce() {
        CompletableFuture<String> failed = TimeoutFutures.orTimeout(new CompletableFuture<>(), 1, TimeUnit.HOURS,
                timer);
        CompletableFuture<String> cancelled = TimeoutFutures.orTimeout(new CompletableFuture<>(), 1, TimeUnit.HOURS,
                timer);
        assertThat(timer.pendingTimeouts()).isEqualTo(2);

        failed.completeExceptionally(new IllegalStateException("failed"));
        cancelled.cancel(false);

        assertThat(timer.pendingTimeouts()).isZero();
        assertThatThrownBy(failed::join).hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void orTimeout_alreadyDone_returnsItUnchangedWithoutATimeout() {
        CompletableFuture<String> done = CompletableFuture.completedFuture("done");

        assertThat(TimeoutFutures.orTimeout(done, 0, TimeUnit.SECONDS, timer)).isSameAs(done);
        assertThat(TimeoutFutures.completeOnTimeout(done, "other", 0, TimeUnit.SECONDS, timer)).isSameAs(done);

        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(done.join()).isEqualTo("done");
    }

    @Test
    void orTimeout_expires_dependentStagesNeverRunOnTheTimerThread() {
        AtomicReference<String> dependentThread = new AtomicReference<>();
        CompletableFuture<String> future = new CompletableFuture<>();
        CompletableFuture<Void> dependent = future.handle((value, failure) -> {
            dependentThread.set(Thread.currentThread().getName());
            return null;
        });

        assertThat(TimeoutFutures.orTimeout(future, 5, TimeUnit.MILLISECONDS, timer)).isSameAs(future);

        dependent.join();
        assertThat(dependentThread.get()).isNotEqualTo("timer-thread").startsWith("tickwheel-futures-");
    }

    @Test
    void completeOnTimeout_notCompletedInTime_completesWithTheValue() throws Exception {
        CompletableFuture<String> future = new CompletableFuture<>();

        assertThat(TimeoutFutures.completeOnTimeout(future, "fallback", 5, TimeUnit.MILLISECONDS, timer))
                .isSameAs(future);

        assertThat(future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("fallback");
    }

    @Test
    void completeOnTimeout_nullValue_completesWithNull() throws Exception {
        CompletableFuture<String> future = new CompletableFuture<>();

        assertThat(TimeoutFutures.completeOnTimeout(future, null, 5, TimeUnit.MILLISECONDS, timer)).isSameAs(future);

        assertThat(future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void completeOnTimeout_completedInTime_keepsItsOwnValue() throws Exception {
        CompletableFuture<String> future = new CompletableFuture<>();
        assertThat(TimeoutFutures.completeOnTimeout(future, "fallback", 1, TimeUnit.HOURS, timer)).isSameAs(future);

        future.complete("own");

        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(future.get()).isEqualTo("own");
    }

    @Test
    void orTimeout_nullArguments_throwNpeNamingThem() {
        CompletableFuture<String> future = new CompletableFuture<>();
        assertThatThrownBy(() -> TimeoutFutures.orTimeout(null, 1, TimeUnit.SECONDS, timer))
                .isInstanceOf(NullPointerException.class).hasMessage("f");
        assertThatThrownBy(() -> TimeoutFutures.orTimeout(future, 1, null, timer))
                .isInstanceOf(NullPointerException.class).hasMessage("unit");
        assertThatThrownBy(() -> TimeoutFutures.orTimeout(future, 1, TimeUnit.SECONDS, null))
                .isInstanceOf(NullPointerException.class).hasMessage("timer");
        assertThatThrownBy(() -> TimeoutFutures.completeOnTimeout(null, "v", 1, TimeUnit.SECONDS, timer))
                .isInstanceOf(NullPointerException.class).hasMessage("f");
        assertThatThrownBy(() -> TimeoutFutures.completeOnTimeout(future, "v", 1, null, timer))
                .isInstanceOf(NullPointerException.class).hasMessage("unit");
        assertThatThrownBy(() -> TimeoutFutures.completeOnTimeout(future, "v", 1, TimeUnit.SECONDS, null))
                .isInstanceOf(NullPointerException.class).hasMessage("timer");
    }

    @Test
    void orTimeout_timerAlreadyStopped_throwsIllegalStateException() {
        timer.stop();

        assertThatThrownBy(() -> TimeoutFutures.orTimeout(new CompletableFuture<>(), 1, TimeUnit.SECONDS, timer))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void orTimeout_timerStoppedWhilePending_failsTheFutureSayingWhy() {
        CompletableFuture<String> future = TimeoutFutures.orTimeout(new CompletableFuture<>(), 1, TimeUnit.HOURS,
                timer);
        CompletableFuture<String> fallback = TimeoutFutures.completeOnTimeout(new CompletableFuture<>(), "v", 1,
                TimeUnit.HOURS, timer);

        timer.stop();

        assertThatThrownBy(future::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThatThrownBy(fallback::join).hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void orTimeout_manyFuturesCompletedFromTwoThreads_eachEndsOnceAndNothingIsRetained() throws Exception {
        int perThread = 20_000;
        List<CompletableFuture<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < 2 * perThread; i++) {
            // one in ten is left to time out; the rest are completed while their timeout is pending
            long delayMillis = i % 10 == 0 ? 5 : 60_000;
            futures.add(TimeoutFutures.orTimeout(new CompletableFuture<>(), delayMillis, TimeUnit.MILLISECONDS, timer));
        }
        ExecutorService completers = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int offset = t;
                done.add(completers.submit(() -> {
                    for (int i = offset; i < futures.size(); i += 2) {
                        if (i % 10 != 0) {
                            futures.get(i).complete(i);
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            completers.shutdown();
        }

        await().atMost(PATIENCE).until(() -> futures.stream().allMatch(CompletableFuture::isDone));
        for (int i = 0; i < futures.size(); i++) {
            CompletableFuture<Integer> future = futures.get(i);
            if (i % 10 == 0) {
                assertThat(future).as("future %d", i).isCompletedExceptionally();
            } else {
                assertThat(future.join()).isEqualTo(i);
            }
        }
        assertThat(timer.pendingTimeouts()).isZero();
    }
}
