package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where {@code TimeoutFutures} completes a future (and so where its dependent stages run): on the
 * executor given to the overloads, else on tickwheel's completion threads; never on the timer's
 * worker, and never not at all, whatever the executor does. And what it retains: nothing, once
 * the future completed.
 */
class TimeoutFuturesExecutorTest {

    private static final long PATIENCE_SECONDS = 10;

    private final Timer timer = HierarchicalWheelTimer.builder()
            .threadFactory(runnable -> new Thread(runnable, "futures-executor-timer"))
            .tickDuration(Duration.ofMillis(1)).build();
    private final ExecutorService mine = Executors.newSingleThreadExecutor(r -> new Thread(r, "my-completer"));

    @AfterEach
    void tearDown() {
        timer.stop();
        mine.shutdownNow();
    }

    private static CompletableFuture<String> threadOfDependent(final CompletableFuture<String> future) {
        return future.handle((v, t) -> Thread.currentThread().getName());
    }

    @Test
    void orTimeout_withExecutor_completesThereSoDependentsRunThere() throws Exception {
        CompletableFuture<String> future = new CompletableFuture<>();
        CompletableFuture<String> dependent = threadOfDependent(future);

        assertThat(TimeoutFutures.orTimeout(future, 5, TimeUnit.MILLISECONDS, timer, mine)).isSameAs(future);

        assertThat(dependent.get(PATIENCE_SECONDS, TimeUnit.SECONDS)).isEqualTo("my-completer");
        assertThatThrownBy(future::get).hasCauseInstanceOf(TimeoutException.class);
    }

    @Test
    void completeOnTimeout_withExecutor_completesThereWithTheValue() throws Exception {
        CompletableFuture<String> future = new CompletableFuture<>();
        CompletableFuture<String> dependent = threadOfDependent(future);

        assertThat(TimeoutFutures.completeOnTimeout(future, "fallback", 5, TimeUnit.MILLISECONDS, timer, mine))
                .isSameAs(future);

        // The dependent first: a thread waiting in future.get() may run dependents itself (the JDK's
        // CompletableFuture helps complete them), which would say nothing about where we completed.
        assertThat(dependent.get(PATIENCE_SECONDS, TimeUnit.SECONDS)).isEqualTo("my-completer");
        assertThat(future.get()).isEqualTo("fallback");
    }

    @Test
    void orTimeout_withoutExecutor_completesOnTickwheelCompletionThreads() throws Exception {
        CompletableFuture<String> future = new CompletableFuture<>();
        CompletableFuture<String> dependent = threadOfDependent(future);

        assertThat(TimeoutFutures.orTimeout(future, 5, TimeUnit.MILLISECONDS, timer)).isSameAs(future);

        assertThat(dependent.get(PATIENCE_SECONDS, TimeUnit.SECONDS)).startsWith("tickwheel-futures-");
    }

    @Test
    void orTimeout_executorRefusesOrThrowsError_futureStillCompletesOffNobody() throws Exception {
        Executor refuses = job -> {
            throw new RejectedExecutionException("refused by the test");
        };
        Executor throwsError = job -> {
            throw new OutOfMemoryError("unable to create native thread");
        };
        for (Executor executor : new Executor[] {refuses, throwsError}) {
            CompletableFuture<String> future = new CompletableFuture<>();
            AtomicReference<String> where = new AtomicReference<>();
            CompletableFuture<Void> dependent = future.handle((v, t) -> {
                where.set(Thread.currentThread().getName());
                return null;
            });

            assertThat(TimeoutFutures.orTimeout(future, 5, TimeUnit.MILLISECONDS, timer, executor)).isSameAs(future);

            dependent.get(PATIENCE_SECONDS, TimeUnit.SECONDS); // first: a waiter in future.get() may run it
            assertThatThrownBy(future::get)
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
            // The documented last resort: the thread that handed the completion over.
            assertThat(where.get()).isEqualTo("futures-executor-timer");
        }
    }

    /** Completed in time: neither the future nor its value is reachable from the timer any more. */
    @Test
    void orTimeout_completedInTime_timerRetainsNeitherFutureNorTask() throws Exception {
        CompletableFuture<byte[]> future = new CompletableFuture<>();
        assertThat(TimeoutFutures.orTimeout(future, 1, TimeUnit.HOURS, timer)).isSameAs(future);
        byte[] value = new byte[1 << 20];
        WeakReference<CompletableFuture<byte[]>> weakFuture = new WeakReference<>(future);
        WeakReference<byte[]> weakValue = new WeakReference<>(value);
        future.complete(value);
        future = null;
        value = null;

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while ((weakFuture.get() != null || weakValue.get() != null) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(weakFuture.get()).as("the completed future").isNull();
        assertThat(weakValue.get()).as("its value").isNull();
        assertThat(timer.pendingTimeouts()).isZero();
    }
}
