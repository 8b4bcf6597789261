package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fault-injection suite (docs/FAULTS.md), run against every timer and configuration by one
 * subclass each: after each fault, the worker keeps working (later timeouts fire once each, in
 * deadline order) or fails loudly (an ERROR, then {@code newTimeout} throws IllegalStateException),
 * and every timeout ever created ends exactly once. This class holds the faults of the time source
 * (a manual clock that stalls, jumps, goes backwards or throws); the others are in the classes it
 * extends.
 */
abstract class TimerFaultTest extends TimerEnvironmentFaultContract {

    private static final String WORKER_FAILED = "failed; the timer is stopped";

    @Test
    void fault_clockStallsThenJumpsSecondsThenHours_nothingFiresEarlyAndEachFiresOnceInDeadlineOrder() {
        ManualClock clock = new ManualClock(Long.MAX_VALUE - TimeUnit.SECONDS.toNanos(5));
        Timer timer = timer(clock, null);
        long[] secondsDelays = {9_000, 150, 4_000, 1, 7_500, 10_000, 600, 2_500};
        long[] hoursDelays = {3 * HOUR_MILLIS + 5, HOUR_MILLIS, 2 * HOUR_MILLIS};
        List<Probe> seconds = trackAll(timer, "seconds", secondsDelays);
        List<Probe> hours = trackAll(timer, "hours", hoursDelays);

        clock.awaitWorkerLooks(20);
        assertThat(order).as("fired while the clock stalled").isEmpty();
        clock.advance(Duration.ofSeconds(10));
        awaitRuns(seconds.toArray(new Probe[0]));
        clock.awaitWorkerLooks(3);
        assertThat(new ArrayList<>(order)).containsExactlyElementsOf(byDelay(seconds, secondsDelays));
        assertThat(timer.pendingTimeouts()).isEqualTo(hours.size());
        clock.advance(Duration.ofMillis(HOUR_MILLIS - 10_001));
        clock.awaitWorkerLooks(3);
        assertThat(order).as("fired so far").hasSameSizeAs(seconds);
        clock.advance(Duration.ofHours(3));
        awaitRuns(hours.toArray(new Probe[0]));

        assertThat(new ArrayList<>(order).subList(seconds.size(), order.size()))
                .containsExactlyElementsOf(byDelay(hours, hoursDelays));
        Probe afterJump = probe("afterJump");
        track(timer, afterJump, 5);
        clock.advance(Duration.ofMillis(4));
        clock.awaitWorkerLooks(3);
        assertThat(afterJump.runs()).as("runs one tick before its deadline").isZero();
        clock.advance(Duration.ofMillis(1));
        awaitRuns(afterJump);
        assertThat(stop(timer)).isEmpty();
        assertEveryTimeoutEndedExactlyOnce(timer);
    }

    @Test
    void fault_clockGoesBackwards_nothingFiresEarlyAndNothingIsLostOrDuplicated() {
        ManualClock clock = new ManualClock(0);
        Timer timer = timer(clock, null);
        Probe atTen = probe("atTen");
        track(timer, atTen, 10);
        clock.advance(Duration.ofMillis(6));
        clock.advance(Duration.ofMillis(-4));
        Probe atSeven = probe("atSeven");
        track(timer, atSeven, 5);
        clock.advance(Duration.ofMillis(-10));
        Probe beforeOrigin = probe("beforeOrigin");
        track(timer, beforeOrigin, 3);
        clock.awaitWorkerLooks(3);
        assertThat(order).as("fired with the clock behind every deadline").isEmpty();

        clock.advance(Duration.ofMillis(15));
        awaitRuns(atSeven, beforeOrigin);
        clock.awaitWorkerLooks(3);
        assertThat(atTen.runs()).as("runs at 7 ms of a timeout due at 10 ms").isZero();
        clock.advance(Duration.ofMillis(3));
        awaitRuns(atTen);
        clock.advance(Duration.ofMillis(-5));
        Probe afterRewind = probe("afterRewind");
        track(timer, afterRewind, 1);
        clock.advance(Duration.ofMillis(6));
        awaitRuns(afterRewind);
        clock.awaitWorkerLooks(3);

        assertThat(new ArrayList<>(order)).hasSize(4).endsWith("atTen", "afterRewind");
        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(stop(timer)).isEmpty();
        assertEveryTimeoutEndedExactlyOnce(timer);
    }

    static Stream<Throwable> clockFailures() {
        return Stream.of(new IllegalStateException("clock failed"), new AssertionError("clock broke an assertion"),
                new StackOverflowError("clock overflowed"));
    }

    /**
     * A fault in the worker's loop itself. Nobody may ever call stop() after it, so the worker tells
     * each pending timeout at once (on its own thread); the first stop() then returns them.
     */
    @ParameterizedTest
    @MethodSource("clockFailures")
    void fault_clockThrowsOnWorker_failsLoudlyTellsEveryPendingAtOnceAndFirstStopReturnsThem(final Throwable failure) {
        try (LogCapture log = LogCapture.of(loggerName())) {
            ManualClock clock = new ManualClock(0);
            Timer timer = timer(clock, null);
            List<Timeout> pending = trackPendingInWheelAndQueue(timer, clock);

            clock.onWorkerRead(raising(failure));
            awaitUntil(() -> !workerThread().isAlive());

            assertThat(log.find(Level.SEVERE, WORKER_FAILED)).singleElement()
                    .satisfies(logRecord -> assertThat(logRecord.getThrown()).isSameAs(failure));
            assertThatThrownBy(() -> timer.newTimeout(probe("refused"), 1, TimeUnit.MILLISECONDS))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> start(timer)).isInstanceOf(IllegalStateException.class);
            assertThat(timer.pendingTimeouts()).isZero();
            for (Timeout timeout : pending) {
                Probe probe = (Probe) timeout.task();
                assertThat(probe.cancelledCalls()).as("cancelled() calls of %s before stop()", probe).isEqualTo(1);
                assertThat(probe.cancelledOn.get()).isSameAs(workerThread());
            }
            assertThat(stop(timer)).containsExactlyInAnyOrderElementsOf(pending);
            assertThat(stop(timer)).isEmpty();
            assertEveryTimeoutEndedExactlyOnce(timer);
        }
    }

    /** stop() wins the race: it asked first, so it tells and returns the pending set, once each. */
    @Test
    void fault_clockFailsWhileStopWaits_stopTellsAndReturnsEveryPendingOnce() {
        try (LogCapture log = LogCapture.of(loggerName())) {
            ManualClock clock = new ManualClock(0);
            Timer timer = timer(clock, null);
            List<Timeout> pending = trackPendingInWheelAndQueue(timer, clock);
            CountDownLatch inClock = new CountDownLatch(1);
            clock.onWorkerRead(() -> {
                inClock.countDown();
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException("clock failed when interrupted", e);
                }
            });
            awaitUntil(() -> inClock.getCount() == 0);

            Set<Timeout> returned = stop(timer);

            assertThat(returned).containsExactlyInAnyOrderElementsOf(pending);
            assertThat(pending).allMatch(
                    timeout -> ((Probe) timeout.task()).cancelledOn.get() == Thread.currentThread());
            assertThat(log.find(Level.SEVERE, WORKER_FAILED)).hasSize(1);
            assertThat(stop(timer)).isEmpty();
            assertEveryTimeoutEndedExactlyOnce(timer);
        }
    }

    /**
     * The worker wins the race (its ERROR log is held up, after it refused new timeouts and before
     * its drain), and two stop() calls wait for the drain: one gets the set, the other none.
     */
    @Test
    void fault_clockFailsThenTwoStopsWaitForTheDrain_oneReturnsEveryPendingTheOtherNone() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        try (LogCapture log = LogCapture.of(loggerName());
                ErrorLogHook hook = new ErrorLogHook(loggerName(), () -> awaitIgnoringInterrupts(released))) {
            ManualClock clock = new ManualClock(0);
            Timer timer = timer(clock, null);
            List<Timeout> pending = trackPendingInWheelAndQueue(timer, clock);
            clock.onWorkerRead(raising(new IllegalStateException("clock failed")));
            awaitUntil(() -> !log.find(Level.SEVERE, WORKER_FAILED).isEmpty());
            assertThatThrownBy(() -> timer.newTimeout(probe("refused"), 1, TimeUnit.MILLISECONDS))
                    .isInstanceOf(IllegalStateException.class);

            List<Thread> stopperThreads = new CopyOnWriteArrayList<>();
            ExecutorService stoppers = closeLater(Executors.newFixedThreadPool(2, runnable -> {
                Thread thread = new Thread(runnable, "fault-stopper");
                thread.setDaemon(true);
                stopperThreads.add(thread);
                return thread;
            }));
            List<Future<Set<Timeout>>> stops = List.of(stoppers.submit(timer::stop), stoppers.submit(timer::stop));
            // Both in stop(), waiting on the worker (join with a timeout), which is still held up.
            awaitUntil(() -> stopperThreads.size() == 2
                    && stopperThreads.stream().allMatch(thread -> thread.getState() == Thread.State.TIMED_WAITING));
            assertThat(stops).noneMatch(Future::isDone);
            released.countDown();
            Set<Timeout> first = stopped(stops.get(0).get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS));
            Set<Timeout> second = stopped(stops.get(1).get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS));

            assertThat(first.isEmpty() ? second : first).containsExactlyInAnyOrderElementsOf(pending);
            assertThat(first.isEmpty() || second.isEmpty()).as("one of the two stop() calls returned nothing").isTrue();
            assertThat(hook.calls()).as("ERROR records").isEqualTo(1);
            assertEveryTimeoutEndedExactlyOnce(timer);
        } finally {
            released.countDown();
        }
    }

    /**
     * The one way a Throwable leaves the worker's run(): its loop fails and logging that fails too
     * (a broken logging backend). The uncaught-exception handler is called (and its own throw is
     * ignored by the JVM); the timer must still be stopped and lose nothing.
     */
    @Test
    void fault_workerLoopFailsAndItsErrorLogThrows_uncaughtHandlerCalledAndNoTimeoutIsLost() {
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        IllegalStateException logFailure = new IllegalStateException("logging backend failed");
        try (LogCapture log = LogCapture.of(loggerName());
                ErrorLogHook hook = new ErrorLogHook(loggerName(), () -> {
                    throw logFailure;
                })) {
            ManualClock clock = new ManualClock(0);
            Timer timer = timer(new Options(throwingHandlerThreads(uncaught), -1, null, clock));
            clock.attach(workerThread());
            List<Timeout> pending = trackPendingInWheelAndQueue(timer, clock);

            clock.onWorkerRead(raising(new IllegalStateException("clock failed")));
            awaitUntil(() -> !workerThread().isAlive());

            assertThat(uncaught).containsExactly(logFailure);
            assertThat(hook.calls()).as("ERROR records").isEqualTo(1);
            assertThat(log.find(Level.SEVERE, WORKER_FAILED)).hasSize(1);
            assertThatThrownBy(() -> timer.newTimeout(probe("refused"), 1, TimeUnit.MILLISECONDS))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(pending).allMatch(timeout -> ((Probe) timeout.task()).cancelledCalls() == 1);
            assertThat(stop(timer)).containsExactlyInAnyOrderElementsOf(pending);
            assertEveryTimeoutEndedExactlyOnce(timer);
        }
    }

    /** A clock that throws on the caller's thread: newTimeout fails with it, and takes no permit or count. */
    @Test
    void fault_clockThrowsInNewTimeout_callerGetsItAndNoPermitOrCountLeaks() {
        AtomicBoolean failing = new AtomicBoolean();
        IllegalStateException failure = new IllegalStateException("clock failed");
        Timer timer = timer(new Options(recordingThreadFactory(), 2, null, () -> {
            if (failing.get() && Thread.currentThread() != threads.get(0)) {
                throw failure;
            }
            return System.nanoTime();
        }));
        Timeout held = track(timer, probe("held"), HOUR_MILLIS);
        failing.set(true);
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> timer.newTimeout(probe("failed"), 1, TimeUnit.MILLISECONDS)).isSameAs(failure);
        }
        failing.set(false);

        assertThat(timer.pendingTimeouts()).isEqualTo(1);
        Timeout last = track(timer, probe("lastPermit"), HOUR_MILLIS);
        assertThatThrownBy(() -> timer.newTimeout(probe("overLimit"), 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(stop(timer)).containsExactlyInAnyOrder(held, last);
        assertEveryTimeoutEndedExactlyOnce(timer);
    }

    /**
     * Leaves timeouts pending in both places the worker's final drain must look: linked in the
     * wheel (taken in with a batch that came due) and still in the hand-off queue (scheduled after).
     */
    private List<Timeout> trackPendingInWheelAndQueue(final Timer timer, final ManualClock clock) {
        List<Timeout> pending = new ArrayList<>();
        List<Probe> due = trackAll(timer, "due", 1, 2);
        for (Probe probe : probes("linked", 5)) {
            pending.add(track(timer, probe, HOUR_MILLIS));
        }
        clock.advance(Duration.ofMillis(3));
        awaitRuns(due.toArray(new Probe[0]));
        for (Probe probe : probes("queued", 5)) {
            pending.add(track(timer, probe, 2 * HOUR_MILLIS));
        }
        return pending;
    }

    /** The probes' names, ordered by their delays (all scheduled at one reading of a manual clock). */
    private static List<String> byDelay(final List<Probe> probes, final long[] delays) {
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < delays.length; i++) {
            indexes.add(i);
        }
        indexes.sort(Comparator.comparingLong(i -> delays[i]));
        return indexes.stream().map(i -> probes.get(i).name()).toList();
    }

    private static Runnable raising(final Throwable failure) {
        return () -> {
            if (failure instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) failure;
        };
    }

    /** Waits for {@code latch} however often stop() interrupts the waiting worker. */
    private static void awaitIgnoringInterrupts(final CountDownLatch latch) {
        boolean interrupted = false;
        while (latch.getCount() > 0) {
            try {
                latch.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
