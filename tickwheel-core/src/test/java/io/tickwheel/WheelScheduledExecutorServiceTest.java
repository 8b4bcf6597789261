package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One-shot scheduling and the returned futures, from the JDK's ScheduledExecutorService docs. */
class WheelScheduledExecutorServiceTest {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final Timer timer = HierarchicalWheelTimer.builder()
            .threadFactory(runnable -> new Thread(runnable, "timer-thread"))
            .tickDuration(Duration.ofMillis(1))
            .build();
    private final AtomicInteger workerNumber = new AtomicInteger();
    private final ExecutorService workers = Executors.newFixedThreadPool(2,
            runnable -> new Thread(runnable, "workers-" + workerNumber.incrementAndGet()));
    private final WheelScheduledExecutorService ses = new WheelScheduledExecutorService(timer, workers);

    @AfterEach
    void tearDown() {
        ses.shutdownNow();
        workers.shutdownNow();
        timer.stop();
    }

    @Test
    void schedule_runnable_runsOnceOnWorkersNeverBeforeDelay() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<String> thread = new AtomicReference<>();
        AtomicLong ranAt = new AtomicLong();
        long start = System.nanoTime();
        ScheduledFuture<?> future = ses.schedule(() -> {
            ranAt.set(System.nanoTime());
            thread.set(Thread.currentThread().getName());
            runs.incrementAndGet();
        }, 50, TimeUnit.MILLISECONDS);

        assertThat(future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isNull();
        assertThat(future.isDone()).isTrue();
        assertThat(future.isCancelled()).isFalse();
        assertThat(runs.get()).isEqualTo(1);
        assertThat(thread.get()).startsWith("workers-");
        assertThat(ranAt.get() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
    }

    @Test
    void schedule_callable_getReturnsItsValue() throws Exception {
        ScheduledFuture<String> future = ses.schedule(() -> "done", 10, TimeUnit.MILLISECONDS);

        assertThat(future.get()).isEqualTo("done");
    }

    @Test
    void schedule_zeroOrNegativeDelay_runsWithoutArmingATimeout() throws Exception {
        Timer slowTimer = HierarchicalWheelTimer.builder().tickDuration(Duration.ofMinutes(10)).build();
        try {
            WheelScheduledExecutorService slow = new WheelScheduledExecutorService(slowTimer, workers);
            ScheduledFuture<String> zero = slow.schedule(() -> "zero", 0, TimeUnit.SECONDS);
            ScheduledFuture<String> negative = slow.schedule(() -> "negative", -5, TimeUnit.SECONDS);

            assertThat(slowTimer.pendingTimeouts()).isZero(); // a 10-minute tick would still hold them
            assertThat(zero.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("zero");
            assertThat(negative.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("negative");
        } finally {
            slowTimer.stop();
        }
    }

    @Test
    void schedule_bodyThrows_getThrowsExecutionExceptionWithCause() {
        IllegalStateException boom = new IllegalStateException("boom");
        ScheduledFuture<?> future = ses.schedule(() -> {
            throw boom;
        }, 5, TimeUnit.MILLISECONDS);

        assertThatThrownBy(future::get).isInstanceOf(ExecutionException.class).hasCause(boom);
    }

    @Test
    void newInstance_nullArguments_throwNpeNamingThem() {
        assertThatThrownBy(() -> new WheelScheduledExecutorService(null, workers))
                .isInstanceOf(NullPointerException.class).hasMessage("timer");
        assertThatThrownBy(() -> new WheelScheduledExecutorService(timer, null))
                .isInstanceOf(NullPointerException.class).hasMessage("workers");
    }

    @Test
    void schedule_nullArguments_throwNpeNamingThem() {
        Runnable command = () -> { };
        assertThatThrownBy(() -> ses.schedule((Runnable) null, 1, TimeUnit.SECONDS))
                .isInstanceOf(NullPointerException.class).hasMessage("command");
        assertThatThrownBy(() -> ses.schedule((Callable<String>) null, 1, TimeUnit.SECONDS))
                .isInstanceOf(NullPointerException.class).hasMessage("callable");
        assertThatThrownBy(() -> ses.schedule(command, 1, null))
                .isInstanceOf(NullPointerException.class).hasMessage("unit");
        assertThatThrownBy(() -> ses.scheduleAtFixedRate(null, 1, 1, TimeUnit.SECONDS))
                .isInstanceOf(NullPointerException.class).hasMessage("command");
        assertThatThrownBy(() -> ses.scheduleWithFixedDelay(command, 1, 1, null))
                .isInstanceOf(NullPointerException.class).hasMessage("unit");
        assertThatThrownBy(() -> ses.execute(null)).isInstanceOf(NullPointerException.class).hasMessage("command");
        assertThatThrownBy(() -> ses.submit((Runnable) null))
                .isInstanceOf(NullPointerException.class).hasMessage("task");
        assertThatThrownBy(() -> ses.invokeAll(null)).isInstanceOf(NullPointerException.class).hasMessage("tasks");
        assertThatThrownBy(() -> ses.invokeAny(listOfNull()))
                .isInstanceOf(NullPointerException.class).hasMessage("tasks element");
        assertThatThrownBy(() -> ses.awaitTermination(1, null))
                .isInstanceOf(NullPointerException.class).hasMessage("unit");
    }

    private static List<Callable<String>> listOfNull() {
        List<Callable<String>> tasks = new ArrayList<>();
        tasks.add(null);
        return tasks;
    }

    @Test
    void scheduleAtFixedRate_nonPositivePeriod_throwsIaeNamingIt() {
        assertThatThrownBy(() -> ses.scheduleAtFixedRate(() -> { }, 1, 0, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("period");
        assertThatThrownBy(() -> ses.scheduleWithFixedDelay(() -> { }, 1, -1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("delay");
    }

    @Test
    void getDelay_pendingTask_positiveAndShrinkingThenNotPositiveOnceRun() throws Exception {
        ScheduledFuture<?> later = ses.schedule(() -> { }, 1, TimeUnit.HOURS);
        long first = later.getDelay(TimeUnit.NANOSECONDS);
        await().atMost(PATIENCE).until(() -> later.getDelay(TimeUnit.NANOSECONDS) < first);
        assertThat(first).isPositive().isLessThanOrEqualTo(TimeUnit.HOURS.toNanos(1));
        assertThat(later.getDelay(TimeUnit.MINUTES)).isBetween(59L, 60L);

        ScheduledFuture<?> soon = ses.schedule(() -> { }, 5, TimeUnit.MILLISECONDS);
        soon.get();
        assertThat(soon.getDelay(TimeUnit.NANOSECONDS)).isNotPositive();
    }

    @Test
    void compareTo_futures_orderedByDueTimeThenSubmission() {
        ScheduledFuture<?> hour = ses.schedule(() -> { }, 1, TimeUnit.HOURS);
        ScheduledFuture<?> minute = ses.schedule(() -> { }, 1, TimeUnit.MINUTES);
        ScheduledFuture<?> day = ses.schedule(() -> { }, 1, TimeUnit.DAYS);
        List<ScheduledFuture<?>> sorted = new ArrayList<>(List.of(hour, day, minute));
        sorted.sort(null);

        assertThat(sorted).containsExactly(minute, hour, day);
        assertThat(hour.compareTo(minute)).isEqualTo(-minute.compareTo(hour)).isPositive();
        Delayed halfHour = new Delayed() { // another implementation: compared by remaining delay
            @Override
            public long getDelay(final TimeUnit unit) {
                return unit.convert(30, TimeUnit.MINUTES);
            }

            @Override
            public int compareTo(final Delayed other) {
                return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
            }
        };
        assertThat(minute.compareTo(halfHour)).isNegative();
        assertThat(hour.compareTo(halfHour)).isPositive();
    }

    @Test
    void cancel_pendingTask_removesItsTimeoutAndItNeverRuns() {
        AtomicInteger runs = new AtomicInteger();
        // Long enough that even a starved test thread cancels before it is due.
        ScheduledFuture<?> future = ses.schedule(runs::incrementAndGet, 1, TimeUnit.SECONDS);
        assertThat(timer.pendingTimeouts()).isEqualTo(1);

        assertThat(future.cancel(false)).isTrue();

        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(future.isCancelled()).isTrue();
        assertThat(future.isDone()).isTrue();
        assertThat(future.cancel(false)).isFalse();
        assertThatThrownBy(future::get).isInstanceOf(CancellationException.class);
        await().during(Duration.ofMillis(1500)).atMost(PATIENCE).until(() -> runs.get() == 0);
    }

    @Test
    void cancel_completedTask_returnsFalseAndKeepsResult() throws Exception {
        ScheduledFuture<String> future = ses.schedule(() -> "kept", 1, TimeUnit.MILLISECONDS);
        assertThat(future.get()).isEqualTo("kept");

        assertThat(future.cancel(true)).isFalse();
        assertThat(future.isCancelled()).isFalse();
        assertThat(future.get()).isEqualTo("kept");
    }

    @Test
    void cancel_mayInterruptRunningBody_interruptsIt() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        ScheduledFuture<?> future = ses.schedule(() -> {
            started.countDown();
            try {
                Thread.sleep(PATIENCE.toMillis());
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        }, 1, TimeUnit.MILLISECONDS);
        assertThat(started.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

        assertThat(future.cancel(true)).isTrue();

        await().atMost(PATIENCE).untilTrue(interrupted);
        assertThat(future.isCancelled()).isTrue();
    }

    @Test
    void get_withTimeoutBeforeDone_throwsTimeoutException() {
        ScheduledFuture<?> future = ses.schedule(() -> { }, 1, TimeUnit.HOURS);

        assertThatThrownBy(() -> future.get(20, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        assertThat(future.isDone()).isFalse();
    }

    @Test
    void schedule_anyTask_neverRunsOnTheTimerThread() throws Exception {
        List<ScheduledFuture<String>> futures = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            futures.add(ses.schedule(() -> Thread.currentThread().getName(), i % 5, TimeUnit.MILLISECONDS));
        }
        for (ScheduledFuture<String> future : futures) {
            assertThat(future.get()).startsWith("workers-");
        }
    }

    @Test
    void schedule_afterTimerStopped_throwsRejectedExecutionException() {
        timer.stop();

        assertThatThrownBy(() -> ses.schedule(() -> { }, 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void schedule_timerStoppedWhilePending_futureFailsAndExecutorCanTerminate() throws Exception {
        ScheduledFuture<?> oneShot = ses.schedule(() -> { }, 1, TimeUnit.HOURS);
        ScheduledFuture<?> periodic = ses.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS);

        timer.stop();

        assertThatThrownBy(oneShot::get).hasCauseInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(periodic::get).hasCauseInstanceOf(RejectedExecutionException.class);
        ses.shutdown();
        assertThat(ses.awaitTermination(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    }

    @Test
    void schedule_workersRejectAtDueTime_futureFailsWithTheRejection() {
        ScheduledFuture<?> future = ses.schedule(() -> { }, 1, TimeUnit.SECONDS); // due after the shutdown

        workers.shutdown();

        assertThatThrownBy(() -> future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void submit_workersShutDown_throwsRejectedExecutionException() throws Exception {
        workers.shutdown();

        assertThatThrownBy(() -> ses.submit(() -> "x")).isInstanceOf(RejectedExecutionException.class);
        ses.shutdown();
        assertThat(ses.awaitTermination(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    }
}
