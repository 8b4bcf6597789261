package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.internal.Clock;
import io.tickwheel.internal.LeakGuardAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Faults around the timer rather than in a task: a task executor that refuses or throws, a thread
 * factory that fails or makes threads whose uncaught-exception handler throws, and interrupts
 * aimed at the worker or at a thread waiting in stop(). Run through {@link TimerFaultTest}'s
 * subclasses.
 */
abstract class TimerEnvironmentFaultContract extends TimerReentryFaultContract {

    /** How a task executor fails to take a task. */
    enum ExecutorFault {
        REJECTS(RejectedExecutionException.class),
        THROWS_RUNTIME_EXCEPTION(IllegalStateException.class),
        THROWS_ERROR(OutOfMemoryError.class);

        final Class<? extends Throwable> type;

        ExecutorFault(final Class<? extends Throwable> type) {
            this.type = type;
        }

        void raise() {
            switch (this) {
                case REJECTS -> throw new RejectedExecutionException("queue full");
                case THROWS_RUNTIME_EXCEPTION -> throw new IllegalStateException("executor broken");
                default -> throw new OutOfMemoryError("unable to create native thread");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutorFault.class)
    void fault_taskExecutorFails_eachRefusalCountedAndLoggedAtErrorNamingTheTaskAndTimerKeepsWorking(
            final ExecutorFault fault) {
        try (LogCapture log = LogCapture.of(loggerName())) {
            ExecutorService delegate = taskExecutor();
            AtomicBoolean failing = new AtomicBoolean(true);
            Executor faulty = command -> {
                if (failing.get()) {
                    fault.raise();
                }
                delegate.execute(command);
            };
            Timer timer = timer(-1, faulty);
            List<Probe> refused = trackAll(timer, "refused", 1, 3, 3, 5, 0);
            refused.forEach(this::expectRefused);
            awaitUntil(() -> coreOf(timer).rejectedTasks() == refused.size());
            failing.set(false);
            List<Probe> after = assertStillFiresInOrder(timer, "after");

            assertThat(coreOf(timer).rejectedTasks()).isEqualTo(refused.size());
            for (Probe probe : refused) {
                assertThat(probe.runs()).as("runs of %s", probe).isZero();
                assertThat(log.find(Level.SEVERE, probe.toString())).singleElement()
                        .satisfies(logRecord -> assertThat(logRecord.getThrown()).isInstanceOf(fault.type));
            }
            assertThat(after).allMatch(probe -> probe.ranOn.get() != workerThread());
            assertThat(workerThread().isAlive()).isTrue();
            assertThat(stop(timer)).isEmpty();
            assertEveryTimeoutEndedExactlyOnce(timer);
        }
    }

    static Stream<Throwable> threadFactoryFailures() {
        return Stream.of(new IllegalStateException("no threads today"),
                new OutOfMemoryError("unable to create native thread"));
    }

    @ParameterizedTest
    @MethodSource("threadFactoryFailures")
    void fault_threadFactoryThrows_constructorFailsWithItAndNoTimerIsLeftBehind(final Throwable failure) {
        int live = LeakGuardAccess.live();
        ThreadFactory failing = runnable -> {
            if (failure instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) failure;
        };
        assertThatThrownBy(() -> create(new Options(failing, -1, null, Clock.SYSTEM))).isSameAs(failure);
        assertThat(LeakGuardAccess.live()).as("timers counted alive").isLessThanOrEqualTo(live);
    }

    @Test
    void fault_threadFactoryReturnsNull_constructorFailsClearlyAndNoTimerIsLeftBehind() {
        int live = LeakGuardAccess.live();
        assertThatThrownBy(() -> create(new Options(runnable -> null, -1, null, Clock.SYSTEM)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("threadFactory.newThread() returned null");
        assertThat(LeakGuardAccess.live()).as("timers counted alive").isLessThanOrEqualTo(live);
    }

    /** Worker threads (recorded) whose uncaught-exception handler counts its calls, then throws. */
    final ThreadFactory throwingHandlerThreads(final List<Throwable> uncaught) {
        ThreadFactory recording = recordingThreadFactory();
        return runnable -> {
            Thread thread = recording.newThread(runnable);
            thread.setUncaughtExceptionHandler((failed, throwable) -> {
                uncaught.add(throwable);
                throw new IllegalStateException("the uncaught-exception handler failed too", throwable);
            });
            return thread;
        };
    }

    /** Whatever a task throws, the worker catches and logs it: the handler is never reached. */
    @Test
    void fault_workerWithThrowingUncaughtHandler_taskFailuresNeverReachItAndWorkerLives() {
        try (LogCapture log = LogCapture.of(loggerName())) {
            List<Throwable> uncaught = new CopyOnWriteArrayList<>();
            Timer timer = timer(new Options(throwingHandlerThreads(uncaught), -1, null, Clock.SYSTEM));
            List<Probe> throwers = List.of(
                    probe("runtime", timeout -> TaskFailure.RUNTIME_EXCEPTION.raise()),
                    probe("overflow", timeout -> TaskFailure.STACK_OVERFLOW.raise()),
                    probe("outOfMemory", timeout -> TaskFailure.OUT_OF_MEMORY.raise()));
            for (int i = 0; i < throwers.size(); i++) {
                track(timer, throwers.get(i), 2L * i);
            }
            awaitRuns(throwers.toArray(new Probe[0]));
            awaitUntil(() -> log.lines(Level.WARNING).size() == throwers.size());
            assertStillFiresInOrder(timer, "after");

            assertThat(uncaught).isEmpty();
            assertThat(workerThread().isAlive()).isTrue();
            assertThat(stop(timer)).isEmpty();
            assertEveryTimeoutEndedExactlyOnce(timer);
        }
    }

    @Test
    void fault_workerInterruptedRepeatedlyFromOutside_firesEachOnceInOrderAndParksWithoutSpinning()
            throws Exception {
        AtomicLong clockReads = new AtomicLong();
        Timer timer = timer(new Options(recordingThreadFactory(), -1, null, () -> {
            clockReads.incrementAndGet();
            return System.nanoTime();
        }));
        start(timer);
        Thread worker = workerThread();
        for (int i = 0; i < 100; i++) {
            worker.interrupt();
        }
        assertWaitsWithoutSpinning(timer, clockReads, "idleAfterInterrupts");

        AtomicBoolean interrupting = new AtomicBoolean(true);
        Future<Integer> interrupter = taskExecutor().submit(() -> {
            int count = 0;
            while (interrupting.get()) {
                worker.interrupt();
                count++;
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
            }
            return count;
        });
        long[] delays = new long[120];
        for (int i = 0; i < delays.length; i++) {
            delays[i] = i * 7L % 40;
        }
        List<Probe> probes = trackAll(timer, "interrupted", delays);
        Timeout far = track(timer, probe("far"), HOUR_MILLIS);
        awaitRuns(probes.toArray(new Probe[0]));
        interrupting.set(false);

        assertThat(interrupter.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isPositive();
        assertDeadlineOrder(probes);
        probes.forEach(TimerContractSupport::assertRanOnceOnTime);
        worker.interrupt();
        assertWaitsWithoutSpinning(timer, clockReads, "idleAfterHammering");
        assertStillFiresInOrder(timer, "after");
        assertThat(stop(timer)).containsExactly(far);
        assertEveryTimeoutEndedExactlyOnce(timer);
    }

    /**
     * Waiting 50 ms for one timeout costs a parked worker a few clock readings per wake-up; a worker
     * whose interrupt stayed set returns from every park at once and reads the clock non-stop.
     */
    private void assertWaitsWithoutSpinning(final Timer timer, final AtomicLong clockReads, final String name) {
        Probe idle = probe(name);
        long before = clockReads.get();
        track(timer, idle, 50);
        awaitRuns(idle);
        assertThat(clockReads.get() - before).as("clock readings while waiting for %s", name).isLessThan(1000);
    }

    /** stop() must not give up on an interrupt of its caller: it still returns the set, and keeps the flag. */
    @Test
    void fault_threadCallingStopIsInterrupted_stopStillReturnsEveryPendingAndKeepsTheInterrupt() throws Exception {
        try (LogCapture log = LogCapture.of(loggerName())) {
            Timer timer = timer();
            CountDownLatch entered = new CountDownLatch(1);
            track(timer, probe("blocker", timeout -> {
                entered.countDown();
                new CountDownLatch(1).await();
            }), 1);
            List<Timeout> far = new ArrayList<>();
            for (Probe probe : probes("far", 10)) {
                far.add(track(timer, probe, HOUR_MILLIS));
            }
            assertThat(entered.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

            Thread.currentThread().interrupt();
            Set<Timeout> returned;
            boolean stillInterrupted;
            try {
                returned = stop(timer);
            } finally {
                stillInterrupted = Thread.interrupted();
            }

            assertThat(stillInterrupted).as("the caller's interrupt is kept").isTrue();
            assertThat(returned).containsExactlyInAnyOrderElementsOf(far);
            assertThat(log.find(Level.WARNING, "Probe(blocker)")).singleElement()
                    .satisfies(logRecord -> assertThat(logRecord.getThrown()).isInstanceOf(InterruptedException.class));
            assertThat(workerThread().isAlive()).isFalse();
            assertEveryTimeoutEndedExactlyOnce(timer);
        }
    }
}
