package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link Timer} contract (SPEC.md, "Behaviour it must keep"), run against every timer and
 * configuration by one subclass each: firing, ordering, cancellation, tasks that misbehave. The
 * lifecycle half (stop, start, limits, executors) is in {@link TimerLifecycleContract}.
 */
abstract class TimerContractTest extends TimerLifecycleContract {

    @Test
    void newTimeout_variousDelays_runsEachOnceNeverBeforeDeadline() {
        Timer timer = timer();
        long[] delays = {1, 2, 3, 7, 13, 30, 64, 100};
        List<Probe> probes = probes("delay", delays.length);
        List<Timeout> timeouts = new ArrayList<>();
        for (int i = 0; i < delays.length; i++) {
            timeouts.add(schedule(timer, probes.get(i), delays[i]));
        }
        awaitRuns(probes.toArray(new Probe[0]));
        awaitSentinel(timer, 20);
        for (int i = 0; i < delays.length; i++) {
            assertRanOnceOnTime(probes.get(i));
            assertThat(probes.get(i).ranOn.get()).isSameAs(workerThread());
            assertThat(timeouts.get(i).isExpired()).isTrue();
            assertThat(timeouts.get(i).isCancelled()).isFalse();
            assertThat(timeouts.get(i).cancel()).isFalse();
        }
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, -1_000_000_000L, Long.MIN_VALUE})
    void newTimeout_zeroOrNegativeDelay_runsOnNextTick(final long delayNanos) {
        Timer timer = timer();
        Probe now = probe("now");
        Probe negativeDuration = probe("negativeDuration");
        Timeout timeout = timer.newTimeout(now, delayNanos, TimeUnit.NANOSECONDS);
        timer.newTimeout(negativeDuration, Duration.ofSeconds(Long.MIN_VALUE));
        awaitRuns(now, negativeDuration);
        assertThat(timeout.isExpired()).isTrue();
        assertThat(now.runs()).isEqualTo(1);
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void newTimeout_hugeDelay_neverRunsStaysPendingAndDoesNotOverflow() {
        Timer timer = timer();
        List<Probe> far = probes("far", 5);
        List<Timeout> timeouts = List.of(
                timer.newTimeout(far.get(0), Long.MAX_VALUE, TimeUnit.NANOSECONDS),
                timer.newTimeout(far.get(1), Long.MAX_VALUE - 1, TimeUnit.NANOSECONDS),
                timer.newTimeout(far.get(2), Long.MAX_VALUE, TimeUnit.DAYS),
                timer.newTimeout(far.get(3), Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)),
                timer.newTimeout(far.get(4), ChronoUnit.FOREVER.getDuration()));
        awaitSentinel(timer, 30);
        for (int i = 0; i < far.size(); i++) {
            assertThat(far.get(i).runs()).as("runs of %s", far.get(i)).isZero();
            assertThat(timeouts.get(i).isExpired()).isFalse();
            assertThat(timeouts.get(i).toString()).contains("later");
        }
        assertThat(timer.pendingTimeouts()).isEqualTo(5);
    }

    @Test
    void newTimeout_shuffledDeadlines_runInDeadlineOrderOnWorkerThread() {
        Timer timer = timer();
        long[] delays = {40, 10, 55, 20, 30, 5, 45, 15, 35, 25, 50, 0};
        List<Probe> probes = new ArrayList<>();
        for (long delay : delays) {
            Probe probe = probe("d" + delay);
            probes.add(probe);
            schedule(timer, probe, delay);
        }
        awaitRuns(probes.toArray(new Probe[0]));
        assertDeadlineOrder(probes);
        for (Probe probe : probes) {
            assertRanOnceOnTime(probe);
            assertThat(probe.ranOn.get()).isSameAs(workerThread());
        }
    }

    /** Clock origins where the nanosecond clock wraps (past Long.MAX_VALUE), crosses zero, or sits near MIN. */
    @ParameterizedTest
    @ValueSource(longs = {Long.MAX_VALUE, 0, Long.MIN_VALUE + 60_000_000L})
    void newTimeout_clockCrossingLimitSoon_runsInOrderNeverEarly(final long readingIn30Millis) {
        long offset = readingIn30Millis - TimeUnit.MILLISECONDS.toNanos(30) - System.nanoTime();
        Timer timer = timer(new Options(recordingThreadFactory(), -1, null, () -> System.nanoTime() + offset));
        List<Probe> probes = new ArrayList<>();
        for (long delay = 0; delay <= 60; delay += 6) {
            Probe probe = probe("d" + delay);
            probes.add(probe);
            schedule(timer, probe, delay);
        }
        Probe never = probe("never");
        Timeout far = timer.newTimeout(never, Long.MAX_VALUE, TimeUnit.NANOSECONDS);
        awaitRuns(probes.toArray(new Probe[0]));
        assertDeadlineOrder(probes);
        probes.forEach(TimerContractSupport::assertRanOnceOnTime);
        assertThat(never.runs()).isZero();
        assertThat(far.toString()).contains("later");
        assertThat(timer.pendingTimeouts()).isEqualTo(1);
    }

    @Test
    void cancel_pendingTimeout_returnsTrueOnceTellsTaskOnceAndTaskNeverRuns() {
        Timer timer = timer();
        Probe probe = probe("cancelled");
        Timeout timeout = schedule(timer, probe, 20);
        assertThat(timer.pendingTimeouts()).isEqualTo(1);
        assertThat(timeout.cancel()).isTrue();
        assertThat(timeout.cancel()).isFalse();
        assertThat(timeout.isCancelled()).isTrue();
        assertThat(timeout.isExpired()).isFalse();
        assertThat(probe.cancelledCalls()).isEqualTo(1);
        assertThat(probe.cancelledOn.get()).isSameAs(Thread.currentThread());
        assertThat(timer.pendingTimeouts()).isZero();
        awaitSentinel(timer, 60);
        assertThat(probe.runs()).isZero();
        assertThat(probe.cancelledCalls()).isEqualTo(1);
    }

    @Test
    void cancel_afterExpiry_returnsFalseWithoutCallback() {
        Timer timer = timer();
        Probe probe = probe("expired");
        Timeout timeout = schedule(timer, probe, 1);
        awaitRuns(probe);
        assertThat(timeout.cancel()).isFalse();
        assertThat(timeout.isExpired()).isTrue();
        assertThat(timeout.isCancelled()).isFalse();
        assertThat(probe.cancelledCalls()).isZero();
        assertThat(timeout.timer()).isSameAs(timer);
        assertThat(timeout.task()).isSameAs(probe);
    }

    @Test
    void cancel_fromManyThreadsAtOnce_exactlyOneCallWins() throws Exception {
        Timer timer = timer();
        ExecutorService pool = closeLater(Executors.newFixedThreadPool(4));
        for (int round = 0; round < 200; round++) {
            Probe probe = probe("raced-" + round);
            Timeout timeout = timer.newTimeout(probe, 1, TimeUnit.HOURS);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int thread = 0; thread < 4; thread++) {
                results.add(pool.submit(
                        () -> go.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS) && timeout.cancel()));
            }
            go.countDown();
            int wins = 0;
            for (Future<Boolean> result : results) {
                wins += result.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS) ? 1 : 0;
            }
            assertThat(wins).as("round %d", round).isEqualTo(1);
            assertThat(probe.cancelledCalls()).isEqualTo(1);
        }
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void cancel_racingExpiry_eachTimeoutEndsExactlyOnce() {
        Timer timer = timer();
        List<Probe> probes = probes("race", 3000);
        List<Timeout> timeouts = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            timeouts.add(timer.newTimeout(probes.get(i), i % 3, TimeUnit.MILLISECONDS));
        }
        boolean[] won = new boolean[timeouts.size()];
        for (int i = 0; i < timeouts.size(); i++) {
            won[i] = timeouts.get(i).cancel();
        }
        awaitSentinel(timer, 20);
        for (int i = 0; i < timeouts.size(); i++) {
            Probe probe = probes.get(i);
            assertThat(probe.runs()).as("runs of %s", probe).isEqualTo(won[i] ? 0 : 1);
            assertThat(probe.cancelledCalls()).as("cancelled() of %s", probe).isEqualTo(won[i] ? 1 : 0);
            assertThat(timeouts.get(i).isCancelled()).isEqualTo(won[i]);
            assertThat(timeouts.get(i).isExpired()).isEqualTo(!won[i]);
        }
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void cancel_fromItsOwnRunningTask_returnsFalse() {
        Timer timer = timer();
        AtomicReference<Boolean> result = new AtomicReference<>();
        Probe self = probe("self", timeout -> result.set(timeout.cancel()));
        Timeout timeout = schedule(timer, self, 1);
        awaitUntil(() -> result.get() != null);
        assertThat(result.get()).isFalse();
        assertThat(timeout.isExpired()).isTrue();
        assertThat(timeout.isCancelled()).isFalse();
        assertThat(self.cancelledCalls()).isZero();
    }

    @Test
    void cancel_fromAnotherTask_victimNeverRunsAndIsToldOnceOnWorker() {
        Timer timer = timer();
        AtomicReference<Timeout> victim = new AtomicReference<>();
        AtomicReference<Boolean> result = new AtomicReference<>();
        Probe victimProbe = probe("victim");
        Probe killer = probe("killer", timeout -> result.set(victim.get().cancel()));
        victim.set(schedule(timer, victimProbe, 40));
        schedule(timer, killer, 5);
        awaitRuns(killer);
        awaitSentinel(timer, 80);
        assertThat(result.get()).isTrue();
        assertThat(victimProbe.runs()).isZero();
        assertThat(victimProbe.cancelledCalls()).isEqualTo(1);
        assertThat(victimProbe.cancelledOn.get()).isSameAs(workerThread());
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void cancel_betweenTwoTasksDueTogether_firstToRunWinsOtherNeverRuns() {
        Timer timer = timer();
        AtomicReference<Timeout> first = new AtomicReference<>();
        AtomicReference<Timeout> second = new AtomicReference<>();
        // A task waits until both references are set: on a loaded machine the test thread can be
        // descheduled for longer than the delay between the two newTimeout calls (CI saw "one" run
        // with "second" still unset, an NPE in the task, and then both run).
        CountDownLatch armed = new CountDownLatch(1);
        Probe one = probe("one", timeout -> {
            armed.await(10, TimeUnit.SECONDS);
            second.get().cancel();
        });
        Probe two = probe("two", timeout -> {
            armed.await(10, TimeUnit.SECONDS);
            first.get().cancel();
        });
        first.set(timer.newTimeout(one, Duration.ofMillis(3)));
        second.set(timer.newTimeout(two, Duration.ofMillis(3)));
        armed.countDown();
        awaitUntil(() -> one.runs() + two.runs() > 0);
        awaitSentinel(timer, 30);
        assertThat(one.runs() + two.runs()).isEqualTo(1);
        assertThat(one.cancelledCalls() + two.cancelledCalls()).isEqualTo(1);
        assertThat(one.runs() == 1 ? two.cancelledCalls() : one.cancelledCalls()).isEqualTo(1);
    }

    static Stream<Throwable> failures() {
        return Stream.of(new IllegalStateException("boom"), new StackOverflowError("deep"),
                new AssertionError("wrong"), new IOException("checked"), new OutOfMemoryError("pretend"));
    }

    @ParameterizedTest
    @MethodSource("io.tickwheel.TimerContractTest#failures")
    void run_taskThrows_loggedAtWarningAndWorkerCarriesOn(final Throwable failure) {
        try (LogCapture log = LogCapture.of(loggerName())) {
            Timer timer = timer();
            Probe thrower = probe("thrower", timeout -> {
                if (failure instanceof Error error) {
                    throw error;
                }
                throw (Exception) failure;
            });
            Probe sameTick = probe("sameTick");
            Probe later = probe("later");
            schedule(timer, thrower, 2);
            schedule(timer, sameTick, 2);
            schedule(timer, later, 10);
            awaitRuns(sameTick, later);
            assertThat(log.find(Level.WARNING, "Probe(thrower)")).singleElement()
                    .satisfies(logRecord -> assertThat(logRecord.getThrown()).isSameAs(failure));
            assertThat(thrower.runs()).isEqualTo(1);
            assertThat(workerThread().isAlive()).isTrue();
            assertThat(timer.pendingTimeouts()).isZero();
        }
    }

    @Test
    void newTimeout_fromInsideTasks_chainsAndFanOutsAllRunInOrder() {
        Timer timer = timer();
        List<Probe> chain = new ArrayList<>();
        List<Probe> fan = probes("fan", 100);
        Probe next = probe("chain-end", timeout -> fan.forEach(probe -> schedule(timeout.timer(), probe, 0)));
        chain.add(next);
        for (int i = 19; i >= 0; i--) {
            Probe following = next;
            long delay = i % 3;
            next = probe("chain-" + i, timeout -> schedule(timeout.timer(), following, delay));
            chain.add(0, next);
        }
        schedule(timer, chain.get(0), 1);
        awaitRuns(fan.toArray(new Probe[0]));
        assertThat(new ArrayList<>(order)).startsWith(chain.stream().map(Probe::name).toArray(String[]::new));
        chain.forEach(TimerContractSupport::assertRanOnceOnTime);
        fan.forEach(TimerContractSupport::assertRanOnceOnTime);
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void pendingTimeouts_afterScheduleCancelAndExpiry_isExact() {
        Timer timer = timer();
        assertThat(timer.pendingTimeouts()).isZero();
        List<Timeout> far = new ArrayList<>();
        for (Probe probe : probes("far", 10)) {
            far.add(timer.newTimeout(probe, 1, TimeUnit.HOURS));
        }
        assertThat(timer.pendingTimeouts()).isEqualTo(10);
        far.subList(0, 3).forEach(Timeout::cancel);
        assertThat(far.get(0).cancel()).isFalse();
        assertThat(timer.pendingTimeouts()).isEqualTo(7);
        List<Probe> near = probes("near", 5);
        near.forEach(probe -> schedule(timer, probe, 1));
        awaitRuns(near.toArray(new Probe[0]));
        assertThat(timer.pendingTimeouts()).isEqualTo(7);
        timer.newTimeout(probe("duration"), Duration.ofHours(1));
        assertThat(timer.pendingTimeouts()).isEqualTo(8);
    }

    @Test
    void toString_pendingCancelledAndExpired_saysTimeStateAndTask() {
        Timer timer = timer();
        Timeout pending = timer.newTimeout(probe("far"), 1, TimeUnit.HOURS);
        assertThat(pending.toString()).contains("ns later", "Probe(far)").doesNotContain("cancelled");
        assertThat(pending.cancel()).isTrue();
        // A completed cancel() lets go of the task (see Timeout#task()), so it is no longer named.
        assertThat(pending.toString()).contains("cancelled", "released").doesNotContain("Probe(far)");
        Probe near = probe("near");
        Timeout expired = schedule(timer, near, 1);
        awaitRuns(near);
        awaitUntil(() -> expired.toString().contains("ns ago"));
        assertThat(expired.toString()).contains("Probe(near)").doesNotContain("cancelled");
    }

    @Test
    void newTimeout_nullArguments_throwNullPointerNamingThemAndStartNothing() {
        Timer timer = timer();
        Probe probe = probe("unused");
        assertThatThrownBy(() -> timer.newTimeout(null, 1, TimeUnit.MILLISECONDS))
                .isInstanceOf(NullPointerException.class).hasMessage("task");
        assertThatThrownBy(() -> timer.newTimeout(probe, 1, null))
                .isInstanceOf(NullPointerException.class).hasMessage("unit");
        assertThatThrownBy(() -> timer.newTimeout(probe, null))
                .isInstanceOf(NullPointerException.class).hasMessage("delay");
        assertThatThrownBy(() -> timer.newTimeout(null, Duration.ofMillis(1)))
                .isInstanceOf(NullPointerException.class).hasMessage("task");
        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(workerThread().getState()).isEqualTo(Thread.State.NEW);
    }

    @Test
    void workerThread_interruptedFromOutsideOrByATask_keepsFiringWithoutSpinning() {
        AtomicLong clockReads = new AtomicLong();
        Timer timer = timer(new Options(recordingThreadFactory(), -1, null, () -> {
            clockReads.incrementAndGet();
            return System.nanoTime();
        }));
        Probe first = probe("first");
        schedule(timer, first, 1);
        awaitRuns(first);
        Thread worker = workerThread();
        for (int i = 0; i < 5; i++) {
            worker.interrupt();
            Probe probe = probe("afterInterrupt-" + i);
            schedule(timer, probe, 3);
            awaitRuns(probe);
            assertRanOnceOnTime(probe);
        }
        Probe selfInterrupting = probe("selfInterrupting", timeout -> Thread.currentThread().interrupt());
        Probe after = probe("after");
        schedule(timer, selfInterrupting, 1);
        schedule(timer, after, 10);
        awaitRuns(after);
        worker.interrupt();
        // Waiting 50 ms for one timeout costs a parked worker a few clock readings per wake-up. If the
        // interrupt stayed set, every park would return at once and the worker would read the clock non-stop.
        Probe idle = probe("idle");
        long readsBefore = clockReads.get();
        schedule(timer, idle, 50);
        awaitRuns(idle);
        assertThat(clockReads.get() - readsBefore).as("clock readings while waiting for one timeout").isLessThan(1000);
        assertThat(worker.isAlive()).isTrue();
    }
}
