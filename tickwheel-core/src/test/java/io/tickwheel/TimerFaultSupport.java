package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.internal.TimerCore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What the fault suite ({@link TimerFaultTest} and the classes it extends) adds to the contract's
 * support: a ledger of every timeout a test created, so that after each fault the test can prove
 * the accounting invariant: every timeout ended exactly once, as expired (its task ran once, or
 * the task executor refused it and that was counted), cancelled (by a {@code cancel()} that
 * returned true) or returned by exactly one {@code stop()}, and {@code pendingTimeouts()} is 0
 * after stop.
 *
 * <p>Threading: each test instance is confined to its test; the ledger is thread-safe, because
 * tasks and other threads add to it.
 */
abstract class TimerFaultSupport extends TimerContractSupport {

    static final long HOUR_MILLIS = TimeUnit.HOURS.toMillis(1);

    /** Every timeout the test created, with the probe it runs. */
    private final Map<Timeout, Probe> created = new ConcurrentHashMap<>();
    /** Timeouts whose {@code cancel()} returned true. */
    private final Set<Timeout> cancelledByCall = ConcurrentHashMap.newKeySet();
    /** Timeouts returned by a {@code stop()}; no timeout may be returned twice. */
    private final Set<Timeout> returnedByStop = ConcurrentHashMap.newKeySet();
    /** Probes the task executor was made to refuse. */
    private final Set<Probe> refusedByExecutor = ConcurrentHashMap.newKeySet();

    /** Schedules {@code probe} like {@link #schedule} and enters the timeout in the ledger. */
    final Timeout track(final Timer timer, final Probe probe, final long delayMillis) {
        return track(schedule(timer, probe, delayMillis));
    }

    /**
     * The probe a tracked timeout runs, from the ledger: {@code timeout.task()} is null once a
     * {@code cancel()} of it completed (the timer lets go of cancelled tasks).
     */
    final Probe probeOf(final Timeout timeout) {
        return created.get(timeout);
    }

    /** Enters a timeout created elsewhere (say, by a task); its task must be a {@link Probe}. */
    final Timeout track(final Timeout timeout) {
        assertThat(created.put(timeout, (Probe) timeout.task())).as("tracked twice: %s", timeout).isNull();
        return timeout;
    }

    /** Schedules one tracked probe per delay, named {@code prefix-index}. */
    final List<Probe> trackAll(final Timer timer, final String prefix, final long... delaysMillis) {
        List<Probe> probes = new ArrayList<>();
        for (int i = 0; i < delaysMillis.length; i++) {
            Probe probe = probe(prefix + "-" + i);
            probes.add(probe);
            track(timer, probe, delaysMillis[i]);
        }
        return probes;
    }

    /** Cancels a timeout, entering it in the ledger if this call won. Safe from tasks. */
    final boolean cancel(final Timeout timeout) {
        boolean won = timeout.cancel();
        if (won) {
            cancelledByCall.add(timeout);
        }
        return won;
    }

    /** Stops a timer and enters what it returned. */
    final Set<Timeout> stop(final Timer timer) {
        return stopped(timer.stop());
    }

    /** Enters the result of a {@code stop()} made on another thread. */
    final Set<Timeout> stopped(final Set<Timeout> returned) {
        for (Timeout timeout : returned) {
            assertThat(returnedByStop.add(timeout)).as("returned by two stop() calls: %s", timeout).isTrue();
        }
        return returned;
    }

    /** Declares that the task executor refused this probe's task: expired, counted, never run. */
    final void expectRefused(final Probe probe) {
        refusedByExecutor.add(probe);
    }

    /**
     * Asserts the accounting invariant for every tracked timeout; call after the timers are stopped
     * (and after any task executor has run what it accepted).
     */
    final void assertEveryTimeoutEndedExactlyOnce(final Timer... stoppedTimers) {
        for (Timer timer : stoppedTimers) {
            assertThat(timer.pendingTimeouts()).as("pendingTimeouts() after stop()").isZero();
        }
        assertThat(created).as("the test created no timeout").isNotEmpty();
        for (Map.Entry<Timeout, Probe> entry : created.entrySet()) {
            Timeout timeout = entry.getKey();
            Probe probe = entry.getValue();
            boolean returned = returnedByStop.contains(timeout);
            boolean cancelled = cancelledByCall.contains(timeout);
            String what = timeout + " (runs " + probe.runs() + ", cancelled() " + probe.cancelledCalls()
                    + ", returned by stop " + returned + ", cancel() won " + cancelled + ")";
            if (timeout.isExpired()) {
                int expectedRuns = refusedByExecutor.contains(probe) ? 0 : 1;
                assertThat(probe.runs()).as("runs of expired %s", what).isEqualTo(expectedRuns);
                assertThat(probe.cancelledCalls()).as("cancelled() of expired %s", what).isZero();
                assertThat(returned || cancelled).as("expired, yet cancelled or returned: %s", what).isFalse();
            } else {
                assertThat(timeout.isCancelled()).as("still pending after stop: %s", what).isTrue();
                assertThat(probe.runs()).as("runs of cancelled %s", what).isZero();
                assertThat(probe.cancelledCalls()).as("cancelled() of %s", what).isEqualTo(1);
                assertThat(returned ^ cancelled).as("cancelled by exactly one of cancel() and stop(): %s", what)
                        .isTrue();
            }
        }
        assertThat(created.keySet()).as("every timeout stop() returned was created by the test")
                .containsAll(returnedByStop);
    }

    /**
     * The timer still works: timeouts scheduled now (tracked) fire once each, not early, in deadline
     * order. Tasks must run in order, so a task executor, if any, must have one thread.
     */
    final List<Probe> assertStillFiresInOrder(final Timer timer, final String prefix) {
        List<Probe> probes = trackAll(timer, prefix, 12, 3, 8, 0, 5, 1, 20, 16);
        awaitRuns(probes.toArray(new Probe[0]));
        assertDeadlineOrder(probes);
        probes.forEach(TimerContractSupport::assertRanOnceOnTime);
        return probes;
    }

    /** A one-thread executor, so tasks handed to it run in the order they were handed over. */
    final ExecutorService taskExecutor() {
        return closeLater(Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fault-task-executor");
            thread.setDaemon(true);
            return thread;
        }));
    }

    /** A timer on {@code clock}, which is attached to the new timer's worker thread. */
    final Timer timer(final ManualClock clock, final Executor executor) {
        Timer timer = timer(new Options(recordingThreadFactory(), -1, executor, clock));
        clock.attach(threads.get(threads.size() - 1));
        return timer;
    }

    /** The engine of a timer made by one of the subclasses, for the counters not on {@link Timer}. */
    static TimerCore coreOf(final Timer timer) {
        return timer instanceof HashedWheelTimer hashed ? hashed.core() : ((HierarchicalWheelTimer) timer).core();
    }

    /** Recurses until the stack overflows: a real StackOverflowError, deep in a task. */
    static int recurse(final int depth) {
        // The guard never holds before the stack runs out; it keeps this from being infinite recursion.
        return depth < 0 ? depth : recurse(depth + 1) + 1;
    }
}
