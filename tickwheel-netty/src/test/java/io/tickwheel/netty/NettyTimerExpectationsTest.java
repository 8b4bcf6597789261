package io.tickwheel.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviours Netty's own {@code HashedWheelTimerTest} expects of a {@code Timer}, checked through
 * the adapter on both tickwheel timers: not before the delay, after it, stop returns what was
 * pending (cancelled), newTimeout after stop is refused, a task may reschedule itself, many
 * timeouts of one delay are on time, a task executor runs the tasks, the pending limit refuses and
 * recovers, the pending count is exact, a huge delay does not overflow, and stop from a task is
 * refused. Written from the list of facts, not from Netty's code.
 */
class NettyTimerExpectationsTest {

    private final List<NettyTimer> timers = new ArrayList<>();

    private NettyTimer track(final io.tickwheel.Timer wheel) {
        NettyTimer timer = NettyTimer.wrap(wheel);
        timers.add(timer);
        return timer;
    }

    private NettyTimer hierarchical() {
        return track(HierarchicalWheelTimer.builder().build());
    }

    @AfterEach
    void stopTimers() {
        timers.forEach(NettyTimer::stop);
    }

    @Test
    void timeout_neverRunsBeforeItsDelay() throws Exception {
        NettyTimer timer = track(new HashedWheelTimer(10, TimeUnit.MILLISECONDS));
        BlockingQueue<Long> lateness = new LinkedBlockingQueue<>();
        long start = System.nanoTime();
        Timeout timeout = timer.newTimeout(t -> lateness.add(System.nanoTime() - start), 300, TimeUnit.MILLISECONDS);
        assertThat(timeout.isExpired()).isFalse();

        Long elapsed = lateness.poll(10, TimeUnit.SECONDS);
        assertThat(elapsed).isNotNull().isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        assertThat(timeout.isExpired()).isTrue();
    }

    @Test
    void stop_afterEverythingRan_returnsNothing_andWithWorkLeft_returnsItCancelled() throws Exception {
        NettyTimer done = hierarchical();
        CountDownLatch ran = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            done.newTimeout(t -> ran.countDown(), 1, TimeUnit.MILLISECONDS);
        }
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(done.stop()).isEmpty();

        NettyTimer busy = hierarchical();
        for (int i = 0; i < 5; i++) {
            busy.newTimeout(t -> { }, 5, TimeUnit.SECONDS);
        }
        Set<Timeout> left = busy.stop();
        assertThat(left).hasSize(5).allSatisfy(t -> assertThat(t.isCancelled()).isTrue());
        assertThat(busy.pendingTimeouts()).isZero();
    }

    @Test
    void newTimeout_afterStop_isRefused() {
        NettyTimer timer = hierarchical();
        timer.newTimeout(t -> { }, 1, TimeUnit.MILLISECONDS);
        timer.stop();
        assertThatThrownBy(() -> timer.newTimeout(t -> { }, 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("stopped");
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void task_reschedulingItselfPastTheWheelLength_keepsRunning() throws Exception {
        NettyTimer timer = track(new HashedWheelTimer(10, TimeUnit.MILLISECONDS, 4));
        CountDownLatch three = new CountDownLatch(3);
        timer.newTimeout(new TimerTask() {
            @Override
            public void run(final Timeout timeout) {
                timeout.timer().newTimeout(this, 60, TimeUnit.MILLISECONDS);
                three.countDown();
            }
        }, 60, TimeUnit.MILLISECONDS);
        assertThat(three.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(timer.stop()).isNotEmpty();
    }

    @Test
    void manyTimeoutsOfOneDelay_eachFiresInsideAGenerousWindow() throws Exception {
        long tickMillis = 100;
        long delayMillis = 125;
        NettyTimer timer = track(new HashedWheelTimer(tickMillis, TimeUnit.MILLISECONDS));
        int count = 20_000;
        BlockingQueue<Long> elapsed = new LinkedBlockingQueue<>();
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            timer.newTimeout(t -> elapsed.add(System.nanoTime() - start), delayMillis, TimeUnit.MILLISECONDS);
        }
        // Never early; late by at most a tick plus generous room for a loaded 2-core machine.
        long maxNanos = TimeUnit.MILLISECONDS.toNanos(delayMillis + tickMillis + 2_000);
        for (int i = 0; i < count; i++) {
            Long nanos = elapsed.poll(30, TimeUnit.SECONDS);
            assertThat(nanos).as("timeout %d of %d", i, count).isNotNull()
                    .isBetween(TimeUnit.MILLISECONDS.toNanos(delayMillis), maxNanos);
        }
    }

    @Test
    void taskExecutor_runsTheNettyTasksOnItsOwnThreads_notOnTheWorker() throws Exception {
        AtomicReference<Thread> worker = new AtomicReference<>();
        AtomicReference<Thread> executorThread = new AtomicReference<>();
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "netty-test-task-executor");
            executorThread.set(thread);
            return thread;
        });
        AtomicInteger handed = new AtomicInteger();
        Executor counting = command -> {
            handed.incrementAndGet();
            executor.execute(command);
        };
        try {
            NettyTimer timer = track(HierarchicalWheelTimer.builder().taskExecutor(counting).threadFactory(runnable -> {
                Thread thread = new Thread(runnable, "netty-test-worker");
                worker.set(thread);
                return thread;
            }).build());
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            AtomicReference<Timeout> seen = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(1);
            Timeout timeout = timer.newTimeout(t -> {
                ranOn.set(Thread.currentThread());
                seen.set(t);
                ran.countDown();
            }, 10, TimeUnit.MILLISECONDS);
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(handed).hasValue(1);
            assertThat(worker.get()).as("the timer's worker was made by its thread factory").isNotNull();
            assertThat(ranOn.get()).as("ran on the executor's thread").isSameAs(executorThread.get())
                    .isNotSameAs(worker.get());
            assertThat(seen.get()).as("with the Netty handle").isSameAs(timeout);
            assertThat(timeout.isExpired()).isTrue();
        } finally {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void pendingLimit_refusesTheNext_andRecoversAfterACancelOrAnExpiry() throws Exception {
        NettyTimer timer = track(HierarchicalWheelTimer.builder().maxPendingTimeouts(2).build());
        timer.newTimeout(t -> { }, 5, TimeUnit.SECONDS);
        Timeout toCancel = timer.newTimeout(t -> { }, 5, TimeUnit.SECONDS);
        assertThatThrownBy(() -> timer.newTimeout(t -> { }, 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(RejectedExecutionException.class).hasMessageContaining("pending timeouts");
        assertThat(timer.pendingTimeouts()).isEqualTo(2);

        assertThat(toCancel.cancel()).isTrue();
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> ran.countDown(), 30, TimeUnit.MILLISECONDS);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();

        CountDownLatch again = new CountDownLatch(1);
        timer.newTimeout(t -> again.countDown(), 30, TimeUnit.MILLISECONDS);
        assertThat(again.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void pendingTimeouts_countsScheduledMinusCancelledAndExpired() throws Exception {
        NettyTimer timer = track(new HashedWheelTimer());
        Timeout first = timer.newTimeout(t -> { }, 100, TimeUnit.MINUTES);
        Timeout second = timer.newTimeout(t -> { }, 100, TimeUnit.MINUTES);
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> ran.countDown(), 90, TimeUnit.MILLISECONDS);
        assertThat(timer.pendingTimeouts()).isEqualTo(3);

        first.cancel();
        second.cancel();
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
    }

    @Test
    void pendingTimeouts_exactWhenTimeoutsOfTheRunningTickAreCancelled() throws Exception {
        NettyTimer timer = hierarchical();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        timer.newTimeout(t -> {
            inside.countDown();
            release.await(10, TimeUnit.SECONDS);
        }, 100, TimeUnit.MILLISECONDS);
        List<Timeout> sameTick = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            sameTick.add(timer.newTimeout(t -> { }, 100, TimeUnit.MILLISECONDS));
        }
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        int cancelled = 0;
        for (Timeout timeout : sameTick) {
            cancelled += timeout.cancel() ? 1 : 0;
        }
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
        assertThat(sameTick.stream().filter(Timeout::isCancelled).count()).isEqualTo(cancelled);
        assertThat(sameTick).allSatisfy(t -> assertThat(t.isCancelled() ^ t.isExpired()).isTrue());
    }

    @Test
    void hugeDelay_doesNotOverflowIntoThePast() throws Exception {
        NettyTimer timer = track(new HashedWheelTimer());
        CountDownLatch ran = new CountDownLatch(1);
        Timeout timeout = timer.newTimeout(t -> ran.countDown(), Long.MAX_VALUE, TimeUnit.MILLISECONDS);
        assertThat(ran.await(500, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(timeout.cancel()).isTrue();
    }

    @Test
    void stop_fromATaskOnTheWorker_isRefused() throws Exception {
        NettyTimer timer = hierarchical();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> {
            try {
                t.timer().stop();
            } catch (Throwable e) {
                thrown.set(e);
            }
            ran.countDown();
        }, 1, TimeUnit.MILLISECONDS);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(thrown.get()).isInstanceOf(IllegalStateException.class);
        CountDownLatch still = new CountDownLatch(1);
        timer.newTimeout(t -> still.countDown(), 1, TimeUnit.MILLISECONDS);
        assertThat(still.await(10, TimeUnit.SECONDS)).as("the timer still runs").isTrue();
    }
}
