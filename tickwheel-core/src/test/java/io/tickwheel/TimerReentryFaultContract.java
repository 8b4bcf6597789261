package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Faults of a task's own making, part two: it calls back into a timer. It stops its own timer or
 * another one, cancels itself and its siblings due in the same tick, or schedules a million more.
 * Run through {@link TimerFaultTest}'s subclasses.
 */
abstract class TimerReentryFaultContract extends TimerTaskFaultContract {

    static final int MILLION = 1_000_000;

    @Test
    void fault_taskCallsStopOnItsOwnTimer_illegalStateLoggedAndTimerKeepsWorking() {
        try (LogCapture log = LogCapture.of(loggerName())) {
            Timer timer = timer();
            Probe stopper = probe("stopper", timeout -> timeout.timer().stop());
            Probe sameTick = probe("sameTick");
            Probe next = probe("next");
            track(timer, stopper, 2);
            track(timer, sameTick, 2);
            track(timer, next, 4);
            Timeout far = track(timer, probe("far"), HOUR_MILLIS);
            awaitRuns(stopper, sameTick, next);
            awaitUntil(() -> !log.find(Level.WARNING, "Probe(stopper)").isEmpty());

            assertThat(log.find(Level.WARNING, "Probe(stopper)")).singleElement()
                    .satisfies(logRecord -> assertThat(logRecord.getThrown())
                            .isInstanceOf(IllegalStateException.class).hasMessageContaining("worker thread"));
            assertThat(far.isCancelled()).isFalse();
            assertThat(timer.pendingTimeouts()).isEqualTo(1);
            assertStillFiresInOrder(timer, "after");
            assertThat(stop(timer)).containsExactly(far);
            assertEveryTimeoutEndedExactlyOnce(timer);
        }
    }

    /** On a task executor the task is not on the worker thread, so its stop() is an ordinary one. */
    @Test
    void fault_taskOnExecutorCallsStopOnItsOwnTimer_timerStopsAndReturnsTheRest() {
        Timer timer = timer(-1, taskExecutor());
        AtomicReference<Set<Timeout>> returned = new AtomicReference<>();
        Probe stopper = probe("stopper", timeout -> returned.set(stopped(timeout.timer().stop())));
        List<Timeout> far = new ArrayList<>();
        for (Probe probe : probes("far", 20)) {
            far.add(track(timer, probe, HOUR_MILLIS));
        }
        track(timer, stopper, 1);
        awaitUntil(() -> returned.get() != null);

        assertThat(returned.get()).containsExactlyInAnyOrderElementsOf(far);
        assertThatThrownBy(() -> timer.newTimeout(probe("refused"), 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(IllegalStateException.class);
        assertThat(workerThread().isAlive()).isFalse();
        assertThat(stop(timer)).isEmpty();
        assertEveryTimeoutEndedExactlyOnce(timer);
    }

    @Test
    void fault_taskCallsStopOnAnotherTimer_thatTimerReturnsItsPendingAndThisOneKeepsWorking() {
        Timer timer = timer();
        Timer other = timer();
        List<Timeout> otherFar = new ArrayList<>();
        for (Probe probe : probes("otherFar", 20)) {
            otherFar.add(track(other, probe, HOUR_MILLIS));
        }
        trackAll(other, "otherNear", 0, 1, 2);
        AtomicReference<Set<Timeout>> returned = new AtomicReference<>();
        track(timer, probe("stopper", timeout -> returned.set(stopped(other.stop()))), 1);
        awaitUntil(() -> returned.get() != null);

        assertThat(returned.get()).containsAll(otherFar);
        assertThatThrownBy(() -> other.newTimeout(probe("refused"), 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(IllegalStateException.class);
        assertStillFiresInOrder(timer, "after");
        assertThat(stop(timer)).isEmpty();
        assertEveryTimeoutEndedExactlyOnce(timer, other);
    }

    /**
     * On a manual clock the twenty timeouts share one deadline, so they are surely in one tick: the
     * first to run cancels itself (too late: false) and its siblings; inline, those never run.
     */
    @ParameterizedTest(name = "on a task executor: {0}")
    @ValueSource(booleans = {false, true})
    void fault_taskCancelsItselfAndItsSameTickSiblings_selfCancelFailsAndEachEndsExactlyOnce(
            final boolean onExecutor) {
        ManualClock clock = new ManualClock(-TimeUnit.MILLISECONDS.toNanos(3));
        Timer timer = timer(clock, onExecutor ? taskExecutor() : null);
        List<Timeout> siblings = new CopyOnWriteArrayList<>();
        Queue<Boolean> selfCancels = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < 20; i++) {
            siblings.add(track(timer, probe("sibling-" + i, timeout -> {
                selfCancels.add(timeout.cancel());
                for (Timeout sibling : siblings) {
                    if (sibling != timeout) {
                        cancel(sibling);
                    }
                }
            }), 5));
        }
        Probe next = probe("next");
        track(timer, next, 6);
        clock.advance(Duration.ofMillis(10));
        awaitRuns(next);

        int ran = siblings.stream().mapToInt(timeout -> probeOf(timeout).runs()).sum();
        assertThat(selfCancels).hasSize(ran).containsOnly(false);
        assertThat(new ArrayList<>(order)).hasSize(ran + 1).endsWith("next");
        if (!onExecutor) {
            assertThat(ran).as("siblings that ran").isEqualTo(1);
            for (Timeout sibling : siblings) {
                Probe probe = probeOf(sibling);
                assertThat(probe.runs() == 1 || probe.cancelledOn.get() == workerThread())
                        .as("%s ran, or was told on the worker", probe).isTrue();
            }
        }
        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(stop(timer)).isEmpty();
        assertEveryTimeoutEndedExactlyOnce(timer);
    }

    @Test
    void fault_taskSchedulesAMillionMore_eachFiresExactlyOnceAndTheTimerKeepsWorking() {
        Timer timer = timer();
        Tally tally = new Tally(MILLION);
        track(timer, probe("spawner", timeout -> {
            for (int i = 0; i < MILLION; i++) {
                timeout.timer().newTimeout(new Spawned(i, tally), i % 100, TimeUnit.MILLISECONDS);
            }
        }), 1);
        awaitUntil(() -> tally.fired.get() >= MILLION);
        awaitSentinel(timer, 5);

        tally.assertEnded(0, MILLION, 1, 0);
        assertThat(tally.fired.get()).isEqualTo(MILLION);
        assertThat(timer.pendingTimeouts()).isZero();
        assertStillFiresInOrder(timer, "after");
        assertThat(stop(timer)).isEmpty();
        assertEveryTimeoutEndedExactlyOnce(timer);
    }

    /**
     * On a manual clock (whose readings wrap past Long.MAX_VALUE on the way) the million are due
     * 10,000 per tick over 100 ticks; the clock then moves to the end of the 50th, so exactly the
     * first half fire, in tick order, and stop() returns exactly the other half.
     */
    @Test
    void fault_taskSchedulesAMillionMoreAndStopComesMidway_firedAndReturnedAreExactlyTheMillion() {
        ManualClock clock = new ManualClock(Long.MAX_VALUE - TimeUnit.SECONDS.toNanos(1));
        Timer timer = timer(clock, null);
        Tally tally = new Tally(MILLION);
        int perTick = MILLION / 100;
        long tickNanos = TimeUnit.MILLISECONDS.toNanos(1);
        AtomicBoolean spawned = new AtomicBoolean();
        track(timer, probe("spawner", timeout -> {
            for (int i = 0; i < MILLION; i++) {
                long delay = TimeUnit.SECONDS.toNanos(1) + i / perTick * tickNanos;
                timeout.timer().newTimeout(new Spawned(i, tally), delay, TimeUnit.NANOSECONDS);
            }
            spawned.set(true);
        }), 0);
        clock.advance(Duration.ofMillis(1));
        awaitUntil(spawned::get);
        // Parked until the first is due, a second away: the worker only parks once it has no batch
        // left to take in, and nothing else puts it in TIMED_WAITING.
        awaitUntil(() -> workerThread().getState() == Thread.State.TIMED_WAITING);
        assertThat(timer.pendingTimeouts()).isEqualTo(MILLION);

        clock.advance(Duration.ofMillis(1049));
        awaitUntil(() -> tally.fired.get() >= MILLION / 2);
        clock.awaitWorkerLooks(3);
        assertThat(tally.fired.get()).as("fired with the clock at the 50th tick").isEqualTo(MILLION / 2);
        tally.assertRanInTickOrder(perTick);
        Set<Timeout> rest = timer.stop();

        assertThat(rest).hasSize(MILLION / 2)
                .allMatch(timeout -> ((Spawned) timeout.task()).index >= MILLION / 2 && timeout.isCancelled());
        tally.assertEnded(0, MILLION / 2, 1, 0);
        tally.assertEnded(MILLION / 2, MILLION, 0, 1);
        assertEveryTimeoutEndedExactlyOnce(timer);
    }

    /**
     * A heartbeat: a task that re-arms itself from the worker thread, as Redisson's lease watchdog
     * and most idle checks do. Every beat runs at or after its deadline and within a generous bound
     * of it, the timer counts the armed beat as pending between beats, and the last beat's far
     * re-arm is what {@code stop()} returns.
     */
    @Test
    void reentry_taskReArmsItselfFromTheWorker_neverEarlyLateWithinBoundAndStopReturnsTheLastArm() {
        Timer timer = timer();
        int beats = 40;
        Queue<Long> lateness = new ConcurrentLinkedQueue<>();
        AtomicInteger ran = new AtomicInteger();
        AtomicReference<Timeout> last = new AtomicReference<>();
        AtomicReference<Thread> beatThread = new AtomicReference<>();
        TimerTask[] beat = new TimerTask[1];
        long[] earliest = new long[1]; // worker thread only, after the first arm
        beat[0] = timeout -> {
            lateness.add(System.nanoTime() - earliest[0]);
            beatThread.set(Thread.currentThread());
            long delayMillis = ran.incrementAndGet() < beats ? 2 : HOUR_MILLIS;
            earliest[0] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis);
            last.set(timeout.timer().newTimeout(beat[0], delayMillis, TimeUnit.MILLISECONDS));
        };
        earliest[0] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
        timer.newTimeout(beat[0], 2, TimeUnit.MILLISECONDS);
        awaitUntil(() -> ran.get() >= beats && last.get() != null && last.get().task() != null
                && timer.pendingTimeouts() == 1);

        assertThat(beatThread.get()).as("the beats ran on the worker thread").isSameAs(workerThread());
        assertThat(lateness).hasSize(beats).allSatisfy(late -> assertThat(late)
                .as("never early, and late by less than a generous bound").isBetween(0L,
                        TimeUnit.MILLISECONDS.toNanos(500)));
        Timeout armed = last.get();
        assertThat(armed.isExpired() || armed.isCancelled()).isFalse();
        assertThat(ran.get()).as("no beat after the far one").isEqualTo(beats);
        assertStillFiresInOrder(timer, "after");
        assertThat(timer.stop()).containsExactly(armed);
        assertThat(armed.isCancelled()).isTrue();
        assertThat(timer.pendingTimeouts()).isZero();
    }

    /**
     * A task that re-arms itself with no delay, forever: each pass fires it once and leaves its
     * next arm for the next pass, so the worker never spins inside one pass and the other
     * timeouts, due meanwhile, fire in their order within a generous bound; cancelling the
     * chain from another thread ends it, and the count ends at zero.
     */
    @Test
    void reentry_taskReArmsWithNoDelayForever_othersStillFireInOrder_andACancelFromOutsideEndsIt() {
        Timer timer = timer();
        AtomicInteger spins = new AtomicInteger();
        AtomicReference<Timeout> current = new AtomicReference<>();
        TimerTask[] again = new TimerTask[1];
        again[0] = timeout -> {
            spins.incrementAndGet();
            current.set(timeout.timer().newTimeout(again[0], 0, TimeUnit.MILLISECONDS));
        };
        current.set(timer.newTimeout(again[0], 0, TimeUnit.MILLISECONDS));
        awaitUntil(() -> spins.get() >= 100);
        List<Probe> others = assertStillFiresInOrder(timer, "beside the chain");
        assertThat(others).allSatisfy(probe -> assertThat(probe.ranAtNanos - probe.earliestNanos)
                .as("%s fired late by", probe).isBetween(0L, TimeUnit.MILLISECONDS.toNanos(500)));

        // The chain's newest arm may fire between our read and our cancel: retry until a cancel
        // wins; the run that armed it had finished arming, so no run may follow.
        Timeout cancelled;
        do {
            cancelled = current.get();
        } while (!cancelled.cancel());
        int atCancel = spins.get();
        awaitSentinel(timer, 5);
        assertThat(spins.get()).as("runs after the winning cancel").isEqualTo(atCancel);
        assertThat(current.get()).isSameAs(cancelled);
        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(timer.stop()).isEmpty();
    }

    /** Per-index counts of a million tasks, and the order they ran in (when they run on the worker). */
    static final class Tally {
        final AtomicIntegerArray runs;
        final AtomicIntegerArray cancels;
        /** Written on the worker only, each slot before the {@code fired} increment that publishes it. */
        final int[] runOrder;
        final AtomicInteger fired = new AtomicInteger();

        Tally(final int size) {
            runs = new AtomicIntegerArray(size);
            cancels = new AtomicIntegerArray(size);
            runOrder = new int[size];
        }

        void ran(final int index) {
            runs.incrementAndGet(index);
            int position = fired.get();
            if (position < runOrder.length) {
                runOrder[position] = index;
            }
            fired.incrementAndGet();
        }

        void assertEnded(final int from, final int to, final int expectedRuns, final int expectedCancels) {
            for (int i = from; i < to; i++) {
                if (runs.get(i) != expectedRuns || cancels.get(i) != expectedCancels) {
                    throw new AssertionError("spawned timeout " + i + " ran " + runs.get(i) + " times and was told "
                            + cancels.get(i) + " times (expected " + expectedRuns + " and " + expectedCancels + ")");
                }
            }
        }

        /** The index of a spawned timeout gives its tick; run order must not go back a tick. */
        void assertRanInTickOrder(final int perTick) {
            int count = fired.get();
            for (int k = 1; k < count; k++) {
                if (runOrder[k] / perTick < runOrder[k - 1] / perTick) {
                    throw new AssertionError("spawned timeout " + runOrder[k] + " ran after " + runOrder[k - 1]);
                }
            }
        }
    }

    /** One of the million: 24 bytes, so a million of them and their timeouts stay near 64 MB. */
    static final class Spawned implements TimerTask {
        final int index;
        private final Tally tally;

        Spawned(final int index, final Tally tally) {
            this.index = index;
            this.tally = tally;
        }

        @Override
        public void run(final Timeout timeout) {
            tally.ran(index);
        }

        @Override
        public void cancelled(final Timeout timeout) {
            tally.cancels.incrementAndGet(index);
        }
    }
}
