package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Workers whose {@code execute} throws after it handed the task on (a decorator that throws after
 * delegating; a {@code ThreadPoolExecutor} that queued it, then failed to start a thread): if the
 * body has already started, it is not a refusal. Its future waits for it, and the executor does
 * not terminate while it runs. Before 2026-11-29 the task's future failed and it left the
 * registry, so {@code isTerminated()} was true with the body still running.
 */
class WorkersThrowAfterTakingTest {

    /**
     * Hands each task to a real pool; the first time, waits until {@code handedOn} opens (the body
     * started, or ran and was re-armed), then throws.
     */
    private static final class ThrowAfterTaking extends AbstractExecutorService {
        private final ExecutorService pool = Executors.newSingleThreadExecutor();
        private final CountDownLatch handedOn;
        private final long extraWaitMillis;
        private final AtomicInteger executes = new AtomicInteger();

        ThrowAfterTaking(final CountDownLatch handedOn, final long extraWaitMillis) {
            this.handedOn = handedOn;
            this.extraWaitMillis = extraWaitMillis;
        }

        @Override
        public void execute(final Runnable command) {
            pool.execute(command);
            if (executes.getAndIncrement() > 0) {
                return;
            }
            try {
                handedOn.await(10, TimeUnit.SECONDS);
                Thread.sleep(extraWaitMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new RejectedExecutionException("thrown after the task was handed on");
        }

        @Override
        public void shutdown() {
            pool.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return pool.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return pool.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return pool.isTerminated();
        }

        @Override
        public boolean awaitTermination(final long timeout, final TimeUnit unit) throws InterruptedException {
            return pool.awaitTermination(timeout, unit);
        }
    }

    @Test
    void aBodyThatStartedBeforeTheWorkersThrew_isNotARefusal() throws Exception {
        HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ThrowAfterTaking workers = new ThrowAfterTaking(started, 0);
        WheelScheduledExecutorService ses = new WheelScheduledExecutorService(timer, workers);
        try {
            ScheduledFuture<String> future = ses.schedule(() -> {
                started.countDown();
                release.await(10, TimeUnit.SECONDS);
                return "ran";
            }, 1, TimeUnit.MILLISECONDS);
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            // The timer's thread handles the throw right after the body started: microseconds.
            Thread.sleep(200);
            ses.shutdown();
            assertThat(future.isDone()).as("the future waits for the running body").isFalse();
            assertThat(ses.isTerminated()).as("not terminated while a body runs").isFalse();
            release.countDown();
            assertThat(future.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
            assertThat(ses.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            release.countDown();
            workers.shutdownNow();
            timer.stop();
        }
    }

    @Test
    void aPeriodicTaskThatRanBeforeTheWorkersThrew_goesOn() throws Exception {
        HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build();
        CountDownLatch firstRunEnded = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        // Throws only after the first run has ended and re-armed (its phase is back to waiting).
        ThrowAfterTaking workers = new ThrowAfterTaking(firstRunEnded, 100);
        WheelScheduledExecutorService ses = new WheelScheduledExecutorService(timer, workers);
        try {
            ScheduledFuture<?> future = ses.scheduleAtFixedRate(() -> {
                runs.incrementAndGet();
                firstRunEnded.countDown();
            }, 1, 20, TimeUnit.MILLISECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (runs.get() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(runs.get()).as("it runs on after the throw").isGreaterThanOrEqualTo(3);
            assertThat(future.isDone()).as("its schedule did not end").isFalse();
            future.cancel(false);
        } finally {
            ses.shutdownNow();
            workers.shutdownNow();
            timer.stop();
        }
    }
}
