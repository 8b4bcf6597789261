package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Faults of a task's own making, part one: it throws (exceptions and errors, a real stack
 * overflow among them), or it blocks the worker. In each case the worker keeps working (or
 * stop() frees it) and every timeout ends exactly once. Run through {@link TimerFaultTest}'s
 * subclasses.
 */
abstract class TimerTaskFaultContract extends TimerFaultSupport {

    /** How a task fails; each raise throws a new throwable of {@link #type}. */
    enum TaskFailure {
        RUNTIME_EXCEPTION(IllegalStateException.class),
        STACK_OVERFLOW(StackOverflowError.class),
        ASSERTION_ERROR(AssertionError.class),
        OUT_OF_MEMORY(OutOfMemoryError.class),
        CHECKED_EXCEPTION(IOException.class);

        final Class<? extends Throwable> type;

        TaskFailure(final Class<? extends Throwable> type) {
            this.type = type;
        }

        void raise() throws IOException {
            switch (this) {
                case RUNTIME_EXCEPTION -> throw new IllegalStateException("task failed");
                case STACK_OVERFLOW -> throw new AssertionError("the stack never ran out: " + recurse(0));
                case ASSERTION_ERROR -> throw new AssertionError("task broke an assertion");
                case OUT_OF_MEMORY -> throw new OutOfMemoryError("task ran out of memory");
                default -> throw new IOException("task failed with a checked exception");
            }
        }
    }

    static Stream<Arguments> failuresInlineAndOnExecutor() {
        return Arrays.stream(TaskFailure.values())
                .flatMap(failure -> Stream.of(Arguments.of(failure, false), Arguments.of(failure, true)));
    }

    @ParameterizedTest(name = "{0}, on a task executor: {1}")
    @MethodSource("failuresInlineAndOnExecutor")
    void fault_taskThrows_loggedAtWarningAndEveryOtherTimeoutFiresOnceInOrder(final TaskFailure failure,
            final boolean onExecutor) {
        try (LogCapture log = LogCapture.of(loggerName())) {
            Timer timer = timer(-1, onExecutor ? taskExecutor() : null);
            List<Probe> all = new ArrayList<>();
            List<Probe> throwers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                Probe thrower = probe("thrower-" + i, timeout -> failure.raise());
                Probe sameTick = probe("sameTick-" + i);
                track(timer, thrower, 3L * i);
                track(timer, sameTick, 3L * i);
                throwers.add(thrower);
                all.add(thrower);
                all.add(sameTick);
            }
            Timeout far = track(timer, probe("far"), HOUR_MILLIS);
            awaitRuns(all.toArray(new Probe[0]));
            awaitUntil(() -> log.find(Level.WARNING, "Probe(thrower-").size() == throwers.size());

            assertDeadlineOrder(all);
            all.forEach(TimerContractSupport::assertRanOnceOnTime);
            for (Probe thrower : throwers) {
                assertThat(log.find(Level.WARNING, thrower.toString())).singleElement()
                        .satisfies(logRecord -> assertThat(logRecord.getThrown()).isInstanceOf(failure.type));
                assertThat(thrower.ranOn.get() == workerThread()).as("ran on the worker").isEqualTo(!onExecutor);
            }
            assertThat(workerThread().isAlive()).isTrue();
            assertStillFiresInOrder(timer, "after");
            assertThat(stop(timer)).containsExactly(far);
            assertEveryTimeoutEndedExactlyOnce(timer);
        }
    }

    @Test
    void fault_taskBlocksWorkerUntilReleased_timeoutsDueMeanwhileWaitThenEachFiresOnceInOrder() throws Exception {
        Timer timer = timer();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Probe blocker = probe("blocker", timeout -> {
            entered.countDown();
            release.await();
        });
        track(timer, blocker, 1);
        assertThat(entered.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        List<Probe> delayed = trackAll(timer, "delayed", 9, 0, 4, 14, 2, 7, 11, 1, 5);
        Timeout far = track(timer, probe("far"), HOUR_MILLIS);
        long allDue = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(15);
        awaitUntil(() -> System.nanoTime() - allDue > 0);

        assertThat(delayed).allMatch(probe -> probe.runs() == 0);
        assertThat(timer.pendingTimeouts()).isEqualTo(delayed.size() + 1);
        release.countDown();
        awaitRuns(delayed.toArray(new Probe[0]));

        assertDeadlineOrder(delayed);
        delayed.forEach(TimerContractSupport::assertRanOnceOnTime);
        assertStillFiresInOrder(timer, "after");
        assertThat(stop(timer)).containsExactly(far);
        assertEveryTimeoutEndedExactlyOnce(timer);
    }

    @Test
    void fault_taskBlocksWorkerForever_stopInterruptsItAndEachTimeoutRanOrIsReturned() throws Exception {
        try (LogCapture log = LogCapture.of(loggerName())) {
            Timer timer = timer();
            CountDownLatch entered = new CountDownLatch(1);
            Probe blocker = probe("blocker", timeout -> {
                entered.countDown();
                new CountDownLatch(1).await();
            });
            track(timer, blocker, 2);
            trackAll(timer, "sameTick", 2, 2, 2);
            List<Timeout> far = new ArrayList<>();
            for (Probe probe : probes("farBefore", 50)) {
                far.add(track(timer, probe, HOUR_MILLIS + far.size()));
            }
            assertThat(entered.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            trackAll(timer, "dueWhileBlocked", 0, 1, 3, 0, 5);
            for (Probe probe : probes("farWhileBlocked", 50)) {
                far.add(track(timer, probe, 2 * HOUR_MILLIS + far.size()));
            }

            Set<Timeout> returned = stop(timer);

            assertThat(returned).containsAll(far);
            assertThat(log.find(Level.WARNING, "thrown by TimerTask Probe(blocker)")).singleElement()
                    .satisfies(logRecord -> assertThat(logRecord.getThrown()).isInstanceOf(InterruptedException.class));
            // It blocked until stop() gave up waiting (100 ms) and interrupted it: a slow task, logged once.
            assertThat(log.find(Level.WARNING, "TimerTask Probe(blocker) of")).singleElement()
                    .satisfies(logRecord -> assertThat(LogCapture.message(logRecord)).contains("slow-task threshold"));
            assertThat(workerThread().isAlive()).isFalse();
            assertEveryTimeoutEndedExactlyOnce(timer);
        }
    }

    /** A task that shrugs off interrupts: stop() keeps waiting (and interrupting) until it lets go. */
    @Test
    void fault_taskIgnoresInterruptsUntilReleased_stopWaitsForItThenEachTimeoutRanOrIsReturned() throws Exception {
        Timer timer = timer();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        Probe stubborn = probe("stubborn", timeout -> {
            entered.countDown();
            while (release.getCount() > 0) {
                try {
                    release.await();
                } catch (InterruptedException ignored) {
                    interrupts.incrementAndGet();
                }
            }
        });
        track(timer, stubborn, 1);
        List<Timeout> far = new ArrayList<>();
        for (Probe probe : probes("far", 20)) {
            far.add(track(timer, probe, HOUR_MILLIS));
        }
        assertThat(entered.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        trackAll(timer, "dueWhileBlocked", 0, 2, 1);

        Future<Set<Timeout>> stopping = taskExecutor().submit(timer::stop);
        awaitUntil(() -> interrupts.get() >= 3);
        assertThat(stopping.isDone()).as("stop() returned while a task still held the worker").isFalse();
        Probe refused = probe("refused");
        assertThatThrownBy(() -> timer.newTimeout(refused, 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(IllegalStateException.class);
        release.countDown();
        Set<Timeout> returned = stopped(stopping.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS));

        assertThat(returned).containsAll(far);
        assertThat(refused.runs() + refused.cancelledCalls()).isZero();
        assertThat(workerThread().isAlive()).isFalse();
        assertThat(stop(timer)).isEmpty();
        assertEveryTimeoutEndedExactlyOnce(timer);
    }

    @Test
    void fault_taskThrowsAndItsToStringThrows_loggedByClassAndWorkerCarriesOn() {
        try (LogCapture log = LogCapture.of(loggerName())) {
            Timer timer = timer();
            AtomicInteger runs = new AtomicInteger();
            TimerTask broken = new TimerTask() {
                @Override
                public void run(final Timeout timeout) {
                    runs.incrementAndGet();
                    throw new IllegalStateException("run failed");
                }

                @Override
                public String toString() {
                    throw new IllegalStateException("toString failed");
                }
            };
            Timeout brokenTimeout = timer.newTimeout(broken, 1, TimeUnit.MILLISECONDS); // not a Probe: checked here
            Probe after = probe("after");
            track(timer, after, 5);
            awaitRuns(after);
            awaitUntil(() -> !log.find(Level.WARNING, "its toString() threw").isEmpty());

            assertThat(runs).hasValue(1);
            assertThat(brokenTimeout.isExpired()).isTrue();
            assertThat(workerThread().isAlive()).as("the worker survives a task it cannot even name").isTrue();
            assertStillFiresInOrder(timer, "after the broken task");
            assertThat(stop(timer)).isEmpty();
            assertEveryTimeoutEndedExactlyOnce(timer);
        }
    }
}
