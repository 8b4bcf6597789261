package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The races between arming a timeout and cancel, shutdownNow or a stopping timer, placed
 * deterministically: the timer below runs a hook right after each real newTimeout returns,
 * before the executor has published the timeout.
 */
class WheelScheduledExecutorServiceRaceTest {

    private static final long PATIENCE_MILLIS = Duration.ofSeconds(20).toMillis();

    private final Timer wheel = HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build();
    private final HookedTimer timer = new HookedTimer(wheel);
    private final ExecutorService workers = Executors.newFixedThreadPool(2);
    private final WheelScheduledExecutorService ses = new WheelScheduledExecutorService(timer, workers);
    private final List<Future<?>> armed = new ArrayList<>();

    /** Delegates to a real timer; runs {@code hook} with the call's number after each newTimeout. */
    private static final class HookedTimer implements Timer {
        private final Timer delegate;
        private final AtomicInteger calls = new AtomicInteger();
        private volatile IntConsumer hook = call -> { };
        /** The task of the newTimeout call running the hook: the executor's task is its future. */
        private volatile TimerTask lastTask;

        HookedTimer(final Timer delegate) {
            this.delegate = delegate;
        }

        @Override
        public Timeout newTimeout(final TimerTask task, final long delay, final TimeUnit unit) {
            Timeout timeout = delegate.newTimeout(task, delay, unit);
            lastTask = task;
            hook.accept(calls.incrementAndGet());
            return timeout;
        }

        @Override
        public Set<Timeout> stop() {
            return delegate.stop();
        }

        @Override
        public long pendingTimeouts() {
            return delegate.pendingTimeouts();
        }
    }

    @AfterEach
    void tearDown() {
        ses.shutdownNow();
        workers.shutdownNow();
        wheel.stop();
    }

    @Test
    void schedule_cancelledWhileArming_timeoutRemovedAndTaskNeverRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        timer.hook = call -> ((Future<?>) timer.lastTask).cancel(false);

        ScheduledFuture<?> future = ses.schedule(runs::incrementAndGet, 10, TimeUnit.MILLISECONDS);

        assertThat(future.isCancelled()).isTrue();
        assertThat(wheel.pendingTimeouts()).isZero();
        ses.shutdown();
        assertThat(ses.isTerminated()).isTrue();
        assertThat(runs.get()).isZero();
    }

    @Test
    void schedule_shutdownNowWhileArming_returnedCancelledAndTimeoutRemoved() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        timer.hook = call -> ses.shutdownNow().forEach(task -> armed.add((Future<?>) task));

        ScheduledFuture<?> future = ses.schedule(runs::incrementAndGet, 10, TimeUnit.MILLISECONDS);

        assertThat(armed).containsExactly(future);
        assertThat(future.isCancelled()).isTrue();
        assertThat(wheel.pendingTimeouts()).isZero();
        assertThat(ses.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(runs.get()).isZero();
    }

    @Test
    void scheduleAtFixedRate_cancelledWhileReArming_timeoutRemovedAndRunsNoMore() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        timer.hook = call -> {
            if (call == 2) { // the re-arm after the first run
                ((Future<?>) timer.lastTask).cancel(false);
            }
        };
        ScheduledFuture<?> future = ses.scheduleAtFixedRate(runs::incrementAndGet, 1, 1, TimeUnit.MILLISECONDS);

        await().atMost(Duration.ofMillis(PATIENCE_MILLIS)).until(future::isCancelled);
        ses.shutdown();
        assertThat(ses.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(wheel.pendingTimeouts()).isZero();
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void schedule_timerStoppedWhileArming_futureFailsWithRejection() throws Exception {
        timer.hook = call -> wheel.stop();

        ScheduledFuture<?> future = ses.schedule(() -> { }, 10, TimeUnit.MILLISECONDS);

        assertThatThrownBy(future::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RejectedExecutionException.class);
        ses.shutdown();
        assertThat(ses.isTerminated()).isTrue();
    }

    @Test
    void scheduleAtFixedRate_timerStoppedBeforeReArm_futureFailsWithRejection() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = ses.scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            wheel.stop(); // from a worker, not the timer's thread, so the timer allows it
        }, 0, 1, TimeUnit.MILLISECONDS);

        assertThatThrownBy(() -> future.get(PATIENCE_MILLIS, TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RejectedExecutionException.class);
        ses.shutdown();
        assertThat(ses.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void submit_workersThrowOtherThanRejection_throwsRejectedExecutionExceptionWithCause() throws Exception {
        WheelScheduledExecutorService broken = new WheelScheduledExecutorService(wheel, new BrokenExecutor());

        assertThatThrownBy(() -> broken.submit(() -> "x")).isInstanceOf(RejectedExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        ScheduledFuture<?> due = broken.schedule(() -> "x", 1, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> due.get(PATIENCE_MILLIS, TimeUnit.MILLISECONDS))
                .hasCauseInstanceOf(RejectedExecutionException.class);
        broken.shutdown();
        assertThat(broken.awaitTermination(PATIENCE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
    }

    /** An executor whose execute fails with something other than a rejection. */
    private static final class BrokenExecutor extends AbstractExecutorService {
        @Override
        public void execute(final Runnable command) {
            throw new IllegalStateException("broken");
        }

        @Override
        public void shutdown() {
            // nothing to stop
        }

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(final long timeout, final TimeUnit unit) {
            return false;
        }
    }
}
