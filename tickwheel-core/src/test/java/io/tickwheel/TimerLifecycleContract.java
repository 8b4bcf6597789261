package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle half of the {@link Timer} contract: lazy start, {@code stop()} and what it returns,
 * the pending limit and the task executor. Run through {@link TimerContractTest}'s subclasses.
 */
abstract class TimerLifecycleContract extends TimerContractSupport {

    @Test
    void stop_beforeAnyTimeout_returnsEmptyStartsNoThreadAndRefusesMore() {
        Timer timer = timer();
        assertThat(timer.stop()).isEmpty();
        assertThat(workerThread().getState()).isEqualTo(Thread.State.NEW);
        Probe refused = probe("refused");
        assertThatThrownBy(() -> timer.newTimeout(refused, 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> start(timer)).isInstanceOf(IllegalStateException.class);
        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(refused.cancelledCalls()).isZero();
        assertThat(workerThread().getState()).isEqualTo(Thread.State.NEW);
    }

    @Test
    void stop_withPendingTimeouts_returnsEveryOneCancelledAndToldOnce() {
        Timer timer = timer();
        Probe ran = probe("ran");
        schedule(timer, ran, 0);
        awaitRuns(ran);
        Probe gone = probe("gone");
        timer.newTimeout(gone, 1, TimeUnit.HOURS).cancel();
        List<Timeout> pending = new ArrayList<>();
        List<Probe> probes = new ArrayList<>();
        Probe parked = probe("parked");
        probes.add(parked);
        pending.add(timer.newTimeout(parked, 1, TimeUnit.HOURS));
        // The worker now sleeps for an hour, so later timeouts wait in the hand-off queue.
        awaitUntil(() -> workerThread().getState() == Thread.State.TIMED_WAITING);
        for (int i = 0; i < 3000; i++) {
            Probe probe = probe("pending-" + i);
            probes.add(probe);
            long delayMillis = i % 3 == 0 ? Long.MAX_VALUE : i % 3 == 1 ? 2 * 3_600_000L + i : 10_000 + i;
            pending.add(timer.newTimeout(probe, delayMillis, TimeUnit.MILLISECONDS));
        }

        Set<Timeout> stopped = timer.stop();

        assertThat(stopped).hasSameSizeAs(pending);
        assertThat(stopped).containsAll(pending);
        for (Timeout timeout : stopped) {
            assertThat(timeout.isCancelled()).isTrue();
            assertThat(timeout.isExpired()).isFalse();
            assertThat(timeout.cancel()).isFalse();
        }
        for (Probe probe : probes) {
            assertThat(probe.runs()).isZero();
            assertThat(probe.cancelledCalls()).as("cancelled() calls of %s", probe).isEqualTo(1);
            assertThat(probe.cancelledOn.get()).isSameAs(Thread.currentThread());
        }
        assertThat(ran.cancelledCalls()).isZero();
        assertThat(gone.cancelledCalls()).isEqualTo(1);
        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(workerThread().isAlive()).isFalse();
        assertThat(timer.stop()).isEmpty();
    }

    @Test
    void newTimeout_afterStop_throwsIllegalStateAndLeavesCountAtZero() {
        Timer timer = timer();
        Timeout pending = timer.newTimeout(probe("pending"), 1, TimeUnit.HOURS);
        assertThat(timer.stop()).containsExactly(pending);
        Probe refused = probe("refused");
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> timer.newTimeout(refused, 1, TimeUnit.MILLISECONDS))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> timer.newTimeout(refused, Duration.ZERO))
                    .isInstanceOf(IllegalStateException.class);
        }
        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(refused.runs()).isZero();
        assertThat(refused.cancelledCalls()).isZero();
        assertThatThrownBy(() -> start(timer)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void start_beforeAnyTimeout_startsTheOneWorkerThatThenRunsTasks() {
        Timer timer = timer();
        assertThat(workerThread().getState()).isEqualTo(Thread.State.NEW);
        start(timer);
        start(timer);
        assertThat(workerThread().isAlive()).isTrue();
        Probe probe = probe("afterStart");
        schedule(timer, probe, 1);
        awaitRuns(probe);
        assertThat(threads).hasSize(1);
        assertThat(probe.ranOn.get()).isSameAs(workerThread());
    }

    @Test
    void stop_fromTaskOnWorkerThread_throwsIllegalStateAndTimerKeepsWorking() {
        Timer timer = timer();
        Queue<Throwable> caught = new ConcurrentLinkedQueue<>();
        Probe stopper = probe("stopper", timeout -> {
            try {
                timeout.timer().stop();
            } catch (IllegalStateException expected) {
                caught.add(expected);
            }
            try {
                timeout.timer().close();
            } catch (IllegalStateException expected) {
                caught.add(expected);
            }
        });
        Probe after = probe("after");
        schedule(timer, stopper, 1);
        schedule(timer, after, 20);
        awaitRuns(after);
        assertThat(caught).hasSize(2).allMatch(IllegalStateException.class::isInstance);
        Probe stillAccepted = probe("stillAccepted");
        schedule(timer, stillAccepted, 1);
        awaitRuns(stillAccepted);
    }

    @Test
    void close_likeStop_cancelsPendingAndRefusesMore() {
        Timer timer = timer();
        Probe probe = probe("pending");
        Timeout timeout = timer.newTimeout(probe, 1, TimeUnit.HOURS);
        timer.close();
        assertThat(timeout.isCancelled()).isTrue();
        assertThat(probe.cancelledCalls()).isEqualTo(1);
        assertThat(timer.pendingTimeouts()).isZero();
        assertThatThrownBy(() -> timer.newTimeout(probe, 1, TimeUnit.HOURS)).isInstanceOf(IllegalStateException.class);
        assertThat(timer.stop()).isEmpty();
        timer.close();
        assertThat(workerThread().isAlive()).isFalse();
    }

    @Test
    void stop_racingNewTimeouts_eachIsRefusedOrReturned() throws Exception {
        Timer timer = timer();
        ExecutorService pool = closeLater(Executors.newFixedThreadPool(3));
        Queue<Timeout> accepted = new ConcurrentLinkedQueue<>();
        Queue<Probe> refused = new ConcurrentLinkedQueue<>();
        CountDownLatch running = new CountDownLatch(3);
        List<Future<?>> producers = new ArrayList<>();
        for (int thread = 0; thread < 3; thread++) {
            producers.add(pool.submit(() -> {
                for (int i = 0; ; i++) {
                    Probe probe = probe("racer");
                    try {
                        accepted.add(timer.newTimeout(probe, 1, TimeUnit.HOURS));
                    } catch (IllegalStateException stopped) {
                        refused.add(probe);
                        return;
                    }
                    if (i == 1000) {
                        running.countDown();
                    }
                }
            }));
        }
        assertThat(running.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

        Set<Timeout> stopped = timer.stop();

        for (Future<?> producer : producers) {
            producer.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        }
        assertThat(stopped).hasSameSizeAs(accepted);
        assertThat(new HashSet<>(accepted)).isEqualTo(stopped);
        assertThat(refused).hasSize(3).allMatch(probe -> probe.cancelledCalls() == 0 && probe.runs() == 0);
        for (Timeout timeout : accepted) {
            assertThat(((Probe) timeout.task()).cancelledCalls()).isEqualTo(1);
        }
        assertThat(timer.pendingTimeouts()).isZero();
    }

    /** SPEC: after stop() returns, pendingTimeouts() is 0; that holds for each of two racing callers. */
    @Test
    void stop_calledByTwoThreadsAtOnce_oneGetsEveryPendingAndBothThenSeeZero() throws Exception {
        Timer timer = timer();
        List<Timeout> pending = new ArrayList<>();
        for (Probe probe : probes("pending", 20_000)) {
            pending.add(timer.newTimeout(probe, 1, TimeUnit.HOURS));
        }
        ExecutorService pool = closeLater(Executors.newFixedThreadPool(2));
        CountDownLatch go = new CountDownLatch(1);
        List<Future<long[]>> stops = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            stops.add(pool.submit(() -> {
                assertThat(go.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
                long returned = timer.stop().size();
                return new long[] {returned, timer.pendingTimeouts()};
            }));
        }
        go.countDown();
        long[] first = stops.get(0).get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        long[] second = stops.get(1).get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(first[0] + second[0]).isEqualTo(pending.size());
        assertThat(Math.min(first[0], second[0])).isZero();
        assertThat(first[1]).as("pendingTimeouts() right after the first caller's stop() returned").isZero();
        assertThat(second[1]).as("pendingTimeouts() right after the second caller's stop() returned").isZero();
    }

    @Test
    void stop_whileTaskBlocksTheWorker_interruptsItAndReturnsThePending() throws Exception {
        try (LogCapture log = LogCapture.of(loggerName())) {
            Timer timer = timer();
            CountDownLatch entered = new CountDownLatch(1);
            Probe blocker = probe("blocker", timeout -> {
                entered.countDown();
                new CountDownLatch(1).await();
            });
            Timeout far = timer.newTimeout(probe("far"), 1, TimeUnit.HOURS);
            schedule(timer, blocker, 1);
            assertThat(entered.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            assertThat(timer.stop()).containsExactly(far);
            assertThat(workerThread().isAlive()).isFalse();
            assertThat(log.find(Level.WARNING, "thrown by TimerTask Probe(blocker)")).hasSize(1);
        }
    }

    @Test
    void cancel_cancelledCallbackThrows_loggedAtWarningAndCancelStillSucceeds() {
        try (LogCapture log = LogCapture.of(loggerName())) {
            Timer timer = timer();
            IllegalStateException failure = new IllegalStateException("callback failed");
            TimerTask task = new TimerTask() {
                @Override
                public void run(final Timeout timeout) {
                    // never due
                }

                @Override
                public void cancelled(final Timeout timeout) {
                    throw failure;
                }
            };
            Timeout timeout = timer.newTimeout(task, 1, TimeUnit.HOURS);
            assertThat(timeout.cancel()).isTrue();
            assertThat(timeout.isCancelled()).isTrue();
            assertThat(log.find(Level.WARNING, "cancelled()")).singleElement()
                    .satisfies(logRecord -> assertThat(logRecord.getThrown()).isSameAs(failure));
            assertThat(timer.pendingTimeouts()).isZero();
        }
    }

    @Test
    void newTimeout_beyondMaxPending_throwsRejectedAndChangesNothing() {
        Timer timer = timer(3, null);
        List<Timeout> held = new ArrayList<>();
        for (Probe probe : probes("held", 3)) {
            held.add(timer.newTimeout(probe, 1, TimeUnit.HOURS));
        }
        Probe refused = probe("refused");
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> timer.newTimeout(refused, 1, TimeUnit.HOURS))
                    .isInstanceOf(RejectedExecutionException.class);
            assertThat(timer.pendingTimeouts()).isEqualTo(3);
        }
        assertThat(held.get(0).cancel()).isTrue();
        held.add(timer.newTimeout(probe("afterCancel"), 1, TimeUnit.HOURS));
        assertThatThrownBy(() -> timer.newTimeout(refused, Duration.ofHours(1)))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(held.get(1).cancel()).isTrue();
        Probe near = probe("near");
        schedule(timer, near, 1);
        awaitRuns(near);
        held.add(timer.newTimeout(probe("afterExpiry"), 1, TimeUnit.HOURS));
        assertThatThrownBy(() -> timer.newTimeout(refused, 1, TimeUnit.HOURS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(timer.pendingTimeouts()).isEqualTo(3);
        assertThat(timer.stop()).hasSize(3).doesNotContain(held.get(0), held.get(1));
        assertThat(refused.runs() + refused.cancelledCalls()).isZero();
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void newTimeout_maxPendingZeroOrNegative_meansNoLimit() {
        for (long noLimit : new long[] {0, -1, Long.MIN_VALUE}) {
            Timer timer = timer(noLimit, null);
            for (Probe probe : probes("unlimited", 2000)) {
                timer.newTimeout(probe, 1, TimeUnit.HOURS);
            }
            assertThat(timer.pendingTimeouts()).isEqualTo(2000);
            assertThat(timer.stop()).hasSize(2000);
        }
    }

    @Test
    void taskExecutor_given_runsTasksOnItSoASlowTaskDelaysNoOther() throws Exception {
        ExecutorService executor = closeLater(Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "task-executor");
            thread.setDaemon(true);
            return thread;
        }));
        Timer timer = timer(-1, executor);
        CountDownLatch released = new CountDownLatch(1);
        AtomicReference<Boolean> slowSawFast = new AtomicReference<>();
        Probe slow = probe("slow",
                timeout -> slowSawFast.set(released.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)));
        Probe fast = probe("fast", timeout -> released.countDown());
        schedule(timer, slow, 1);
        schedule(timer, fast, 10);
        awaitRuns(fast);
        awaitUntil(() -> slowSawFast.get() != null);
        assertThat(slowSawFast.get()).as("the later task ran while the slow one was still running").isTrue();
        for (Probe probe : List.of(slow, fast)) {
            assertRanOnceOnTime(probe);
            assertThat(probe.ranOn.get().getName()).isEqualTo("task-executor");
            assertThat(probe.ranOn.get()).isNotSameAs(workerThread());
        }
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void taskExecutor_rejectsATask_logsErrorNamingItAndWorkerKeepsGoing() {
        try (LogCapture log = LogCapture.of(loggerName())) {
            AtomicInteger handedOver = new AtomicInteger();
            Executor refusesFirst = command -> {
                if (handedOver.getAndIncrement() == 0) {
                    throw new RejectedExecutionException("full");
                }
                command.run();
            };
            Timer timer = timer(-1, refusesFirst);
            Probe refused = probe("refused");
            Timeout refusedTimeout = schedule(timer, refused, 1);
            awaitUntil(() -> handedOver.get() == 1);
            Probe accepted = probe("accepted");
            schedule(timer, accepted, 1);
            awaitRuns(accepted);
            assertThat(log.find(Level.SEVERE, "Probe(refused)")).singleElement()
                    .satisfies(logRecord -> assertThat(logRecord.getThrown())
                            .isInstanceOf(RejectedExecutionException.class));
            assertThat(refused.runs()).isZero();
            assertThat(refusedTimeout.isExpired()).isTrue();
            assertThat(timer.pendingTimeouts()).isZero();
        }
    }
}
