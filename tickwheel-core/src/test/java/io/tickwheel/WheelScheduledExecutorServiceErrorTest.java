package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An Error where the executor meets its workers or its timer (a pool that cannot create a native
 * thread, a timer that runs out of memory while re-arming): every future completes and the
 * executor still terminates.
 */
class WheelScheduledExecutorServiceErrorTest {

    private static final long PATIENCE_SECONDS = 10;

    private final HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder()
            .threadFactory(r -> daemon(r, "error-test-timer")).tickDuration(Duration.ofMillis(1)).build();

    @AfterEach
    void tearDown() {
        timer.stop();
    }

    private static Thread daemon(final Runnable r, final String name) {
        Thread thread = new Thread(r, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Workers whose execute throws what a ThreadPoolExecutor throws when it cannot start a thread. */
    private static final class NoThreadWorkers extends AbstractExecutorService {
        private volatile boolean shutdown;

        @Override
        public void execute(final Runnable command) {
            throw new OutOfMemoryError("unable to create native thread: possibly out of memory");
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(final long timeout, final TimeUnit unit) {
            return shutdown;
        }
    }

    /** A timer in front of {@code timer} whose newTimeout the test decides; the rest goes to {@code timer}. */
    private abstract class FrontTimer implements Timer {
        @Override
        public java.util.Set<Timeout> stop() {
            return timer.stop();
        }

        @Override
        public long pendingTimeouts() {
            return timer.pendingTimeouts();
        }
    }

    @Test
    void schedule_workersThrowError_futureFailsAndExecutorTerminates() throws Exception {
        WheelScheduledExecutorService executor = new WheelScheduledExecutorService(timer, new NoThreadWorkers());
        ScheduledFuture<String> future = executor.schedule(() -> "ran", 10, TimeUnit.MILLISECONDS);

        assertThatThrownBy(() -> future.get(PATIENCE_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RejectedExecutionException.class)
                .hasRootCauseInstanceOf(OutOfMemoryError.class);
        executor.shutdown();
        assertThat(executor.awaitTermination(PATIENCE_SECONDS, TimeUnit.SECONDS)).as("terminated").isTrue();
    }

    @Test
    void submit_workersThrowError_callerGetsItAndExecutorTerminates() throws Exception {
        WheelScheduledExecutorService executor = new WheelScheduledExecutorService(timer, new NoThreadWorkers());

        assertThatThrownBy(() -> executor.submit(() -> "ran")).isInstanceOf(OutOfMemoryError.class);
        executor.shutdown();
        assertThat(executor.awaitTermination(PATIENCE_SECONDS, TimeUnit.SECONDS)).as("terminated").isTrue();
    }

    /** A timer that throws an Error from its second newTimeout on: the periodic task's re-arm. */
    @Test
    void scheduleAtFixedRate_timerThrowsErrorOnRearm_futureFailsAndExecutorTerminates() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Timer failing = new FrontTimer() {
            @Override
            public Timeout newTimeout(final TimerTask task, final long delay, final TimeUnit unit) {
                if (calls.incrementAndGet() > 1) {
                    throw new OutOfMemoryError("simulated: while re-arming");
                }
                return timer.newTimeout(task, delay, unit);
            }
        };
        ExecutorService workers = Executors.newSingleThreadExecutor(r -> daemon(r, "error-test-worker"));
        try {
            WheelScheduledExecutorService executor = new WheelScheduledExecutorService(failing, workers);
            AtomicInteger runs = new AtomicInteger();
            ScheduledFuture<?> future = executor.scheduleAtFixedRate(runs::incrementAndGet, 5, 5,
                    TimeUnit.MILLISECONDS);

            assertThatThrownBy(() -> future.get(PATIENCE_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasRootCauseInstanceOf(OutOfMemoryError.class);
            assertThat(runs.get()).isOne();
            executor.shutdown();
            assertThat(executor.awaitTermination(PATIENCE_SECONDS, TimeUnit.SECONDS)).as("terminated").isTrue();
        } finally {
            workers.shutdownNow();
        }
    }

    /** The first arm throws an Error: the caller gets it, and the task does not keep the executor alive. */
    @Test
    void schedule_timerThrowsErrorOnFirstArm_callerGetsItAndExecutorTerminates() throws Exception {
        Timer failing = new Timer() {
            @Override
            public Timeout newTimeout(final TimerTask task, final long delay, final TimeUnit unit) {
                throw new OutOfMemoryError("simulated: while arming");
            }

            @Override
            public java.util.Set<Timeout> stop() {
                return java.util.Set.of();
            }

            @Override
            public long pendingTimeouts() {
                return 0;
            }
        };
        WheelScheduledExecutorService executor = new WheelScheduledExecutorService(failing, new NoThreadWorkers());

        assertThatThrownBy(() -> executor.schedule(() -> "x", 1, TimeUnit.SECONDS))
                .isInstanceOf(OutOfMemoryError.class);
        executor.shutdown();
        assertThat(executor.awaitTermination(PATIENCE_SECONDS, TimeUnit.SECONDS)).as("terminated").isTrue();
    }

    /**
     * The timeout's cancel throws an Error (a stack overflow in the caller's deep stack, say): the
     * future is cancelled all the same, the Error reaches the caller, and the task still leaves the
     * registry, so the executor terminates.
     */
    @Test
    void cancel_timeoutCancelThrowsError_executorStillTerminates() throws Exception {
        Timer failing = new FrontTimer() {
            @Override
            public Timeout newTimeout(final TimerTask task, final long delay, final TimeUnit unit) {
                Timeout real = timer.newTimeout(task, delay, unit);
                return new Timeout() {
                    @Override
                    public Timer timer() {
                        return real.timer();
                    }

                    @Override
                    public TimerTask task() {
                        return real.task();
                    }

                    @Override
                    public boolean isExpired() {
                        return real.isExpired();
                    }

                    @Override
                    public boolean isCancelled() {
                        return real.isCancelled();
                    }

                    @Override
                    public boolean cancel() {
                        real.cancel();
                        throw new StackOverflowError("simulated: while cancelling the timeout");
                    }
                };
            }
        };
        WheelScheduledExecutorService executor = new WheelScheduledExecutorService(failing, new NoThreadWorkers());
        ScheduledFuture<String> future = executor.schedule(() -> "never", 1, TimeUnit.HOURS);

        assertThatThrownBy(() -> future.cancel(false)).isInstanceOf(StackOverflowError.class);

        assertThat(future.isCancelled()).isTrue();
        executor.shutdown();
        assertThat(executor.awaitTermination(PATIENCE_SECONDS, TimeUnit.SECONDS)).as("terminated").isTrue();
        assertThat(executor.shutdownNow()).as("nothing left registered").isEmpty();
    }
}
