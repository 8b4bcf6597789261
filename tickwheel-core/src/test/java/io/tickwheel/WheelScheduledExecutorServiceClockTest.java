package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The executor schedules on our own timers' engines with its own clock reading only when the
 * timer reads {@link System#nanoTime()}. On a timer with another clock (here a manual one, far
 * from {@code System.nanoTime()}) it must go through {@code newTimeout}: the future's delay stays
 * on {@code System.nanoTime()}, and the timeout's deadline on the timer's clock.
 */
class WheelScheduledExecutorServiceClockTest {

    private static final long PATIENCE_SECONDS = 20;

    @Test
    void timerOnAnotherClock_delayOnSystemTime_deadlineOnTheTimersClock() throws Exception {
        ManualClock clock = new ManualClock(System.nanoTime() + TimeUnit.DAYS.toNanos(365));
        HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder().build(clock, true);
        timer.start();
        clock.attach(timer.core().workerThread());
        ExecutorService workers = Executors.newSingleThreadExecutor();
        WheelScheduledExecutorService executor = new WheelScheduledExecutorService(timer, workers);
        try {
            CountDownLatch ran = new CountDownLatch(1);
            ScheduledFuture<?> future = executor.schedule(ran::countDown, 10, TimeUnit.MINUTES);
            assertThat(future.getDelay(TimeUnit.MINUTES)).as("delay read on System.nanoTime()").isBetween(9L, 10L);
            assertThat(ran.await(50, TimeUnit.MILLISECONDS)).as("not due on the timer's clock yet").isFalse();
            clock.advance(Duration.ofMinutes(10));
            assertThat(ran.await(PATIENCE_SECONDS, TimeUnit.SECONDS)).as("due once the timer's clock moved").isTrue();
            executor.shutdown();
            assertThat(executor.awaitTermination(PATIENCE_SECONDS, TimeUnit.SECONDS)).isTrue();
        } finally {
            executor.shutdownNow();
            workers.shutdownNow();
            timer.stop();
        }
    }

    @Test
    void ownTimerOnTheSystemClock_delayCountsFromTheSchedule() throws Exception {
        HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder().build();
        ExecutorService workers = Executors.newSingleThreadExecutor();
        WheelScheduledExecutorService executor = new WheelScheduledExecutorService(timer, workers);
        try {
            long before = System.nanoTime();
            CountDownLatch ran = new CountDownLatch(1);
            long[] ranAt = new long[1];
            ScheduledFuture<?> future = executor.schedule(() -> {
                ranAt[0] = System.nanoTime();
                ran.countDown();
            }, 30, TimeUnit.MILLISECONDS);
            assertThat(ran.await(PATIENCE_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(future.get(PATIENCE_SECONDS, TimeUnit.SECONDS)).isNull();
            assertThat(ranAt[0] - before).as("never before its delay").isGreaterThanOrEqualTo(
                    TimeUnit.MILLISECONDS.toNanos(30));
        } finally {
            executor.shutdownNow();
            workers.shutdownNow();
            timer.stop();
        }
    }
}
