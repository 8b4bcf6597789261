package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.internal.LeakGuardAccess;
import io.tickwheel.testing.LogBackendDown;
import io.tickwheel.testing.StackEdge;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code stop()} from a deep caller, with a real StackOverflowError at every depth of its path
 * (see {@link StackEdge}), one timer per depth. A call that threw may have stopped the timer
 * already; a retry from a shallow stack must then return every pending timeout, each told
 * through {@code cancelled()} exactly once. Until 2026-11-29 the call that won the state CAS owned
 * the pending set, and one that threw after that CAS lost it: the retry returned nothing, and the
 * timeouts not yet told were never told (docs/FAULTS.md listed it as not covered).
 */
class StopStackOverflowTest {

    private static final int PER_TIMER = 3;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hier", "hashed"})
    void stop_stackOverflowsAtEveryDepth_aRetryReturnsEveryPendingTimeoutToldOnce(final String kind)
            throws Exception {
        int count = StackEdge.MAX_CALLS;
        int liveBefore = LeakGuardAccess.live();
        Timer[] timers = new Timer[count];
        List<List<Timeout>> pending = new ArrayList<>();
        // A plain array: the callback's body makes no call, so an overflow can strike only at its
        // entry, before it counts. Read after the sweep's thread was joined.
        int[] told = new int[count * PER_TIMER];
        for (int i = 0; i < count; i++) {
            timers[i] = "hier".equals(kind)
                    ? HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).leakDetection(false).build()
                    : HashedWheelTimer.builder().tickDuration(Duration.ofMillis(1)).leakDetection(false).build();
            List<Timeout> mine = new ArrayList<>();
            for (int j = 0; j < PER_TIMER; j++) {
                int slot = i * PER_TIMER + j;
                mine.add(timers[i].newTimeout(new TimerTask() {
                    @Override
                    public void run(final Timeout timeout) {
                        throw new AssertionError("an hour-long timeout fired");
                    }

                    @Override
                    public void cancelled(final Timeout timeout) {
                        told[slot]++;
                    }
                }, 1, TimeUnit.HOURS));
            }
            pending.add(mine);
        }
        try {
            sweepAndCheck(kind, timers, pending, told);
            // Timers leaked by earlier tests may be collected meanwhile, which only lowers the count.
            assertThat(LeakGuardAccess.live()).as("live timers after every stop() returned: none of ours")
                    .isLessThanOrEqualTo(liveBefore);
        } finally {
            for (Timer timer : timers) {
                timer.stop(); // after a failed assertion too: no workers left to later tests
            }
        }
    }

    private static void sweepAndCheck(final String kind, final Timer[] timers, final List<List<Timeout>> pending,
            final int[] told) throws InterruptedException {
        int count = timers.length;
        StopSweep sweep = new StopSweep(timers);
        StackEdge.sweepOnNewThread(sweep, "stop-overflow-sweep");
        int[] toldBySweep = told.clone(); // the sweep's thread was joined

        int retried = 0;
        int untold = 0;
        int overflowedTimers = 0;
        int partlyTold = 0;
        for (int i = 0; i < count; i++) {
            Set<Timeout> returned = sweep.returned[i];
            if (returned == null) {
                // It threw (or the sweep never got to it): stop again from a shallow stack.
                returned = timers[i].stop();
                retried++;
            }
            String what = kind + " timer " + i + (sweep.overflowed[i] ? " (its stop() overflowed)" : "");
            assertThat(returned).as(what + ": the pending timeouts, returned once").hasSameElementsAs(pending.get(i))
                    .hasSize(PER_TIMER);
            assertThat(timers[i].stop()).as(what + ": a later stop() returns nothing").isEmpty();
            for (int j = 0; j < PER_TIMER; j++) {
                int calls = told[i * PER_TIMER + j];
                assertThat(calls).as(what + ", timeout " + j + ": cancelled() bodies run").isLessThanOrEqualTo(1);
                assertThat(pending.get(i).get(j).isCancelled()).as(what + ", timeout " + j).isTrue();
                if (calls == 0) {
                    // The overflow struck at the callback's entry and was logged as its failure.
                    assertThat(sweep.overflowed[i]).as(what + ", timeout " + j + " never told").isTrue();
                    untold++;
                }
            }
            overflowedTimers += sweep.overflowed[i] ? 1 : 0;
            int toldThere = 0;
            for (int j = 0; j < PER_TIMER; j++) {
                toldThere += toldBySweep[i * PER_TIMER + j];
            }
            partlyTold += sweep.overflowed[i] && toldThere > 0 && toldThere < PER_TIMER ? 1 : 0;
        }
        // The sweep's deepest points come before the report is taken (the leak guard's release, the
        // wait for the worker), so it rarely strikes while telling: the next test takes that path.
        System.out.printf("%s: %d of %d stop() calls overflowed, %d while telling%n", kind, sweep.overflows,
                count, partlyTold);
        assertThat(sweep.overflows).as("stop() calls that overflowed the stack").isGreaterThan(0);
        assertThat(retried).isGreaterThanOrEqualTo(sweep.overflows);
        // One overflow per failed call: it can keep at most one callback of its timer from running.
        assertThat(untold).as("timeouts never told, of %d overflowed stop() calls", overflowedTimers)
                .isLessThanOrEqualTo(overflowedTimers);
    }

    /**
     * The report's give-back, deterministically: the first {@code cancelled()} that stop() calls
     * throws, and the logging backend throws while logging that, so the failure escapes stop()
     * after it took the report and told one timeout. The retry returns the whole set, calls the
     * failed callback once more (documented: its failure escaped) and the others once.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hier", "hashed"})
    void stop_aCancelledCallbackWhoseFailureCannotBeLogged_aRetryReturnsTheSetAndTellsTheRest(final String kind) {
        boolean hier = "hier".equals(kind);
        Timer timer = hier
                ? HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build()
                : HashedWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build();
        AtomicInteger[] told = new AtomicInteger[PER_TIMER];
        AtomicBoolean failNext = new AtomicBoolean(true);
        List<Timeout> pending = new ArrayList<>();
        for (int j = 0; j < PER_TIMER; j++) {
            AtomicInteger calls = new AtomicInteger();
            told[j] = calls;
            pending.add(timer.newTimeout(new TimerTask() {
                @Override
                public void run(final Timeout timeout) {
                    throw new AssertionError("an hour-long timeout fired");
                }

                @Override
                public void cancelled(final Timeout timeout) {
                    calls.incrementAndGet();
                    if (failNext.getAndSet(false)) {
                        throw new IllegalStateException("cancelled() fails, expected by the test");
                    }
                }
            }, 1, TimeUnit.HOURS));
        }
        String logger = "io.tickwheel." + (hier ? "HierarchicalWheelTimer" : "HashedWheelTimer");
        LogBackendDown down = new LogBackendDown(logger, "logging backend down, expected by the test");
        try {
            assertThatThrownBy(timer::stop).hasMessageContaining("logging backend down");
        } finally {
            down.close();
        }
        assertThat(timer.pendingTimeouts()).isZero();
        Set<Timeout> returned = timer.stop();
        assertThat(returned).as("the retry's set").hasSameElementsAs(pending).hasSize(PER_TIMER);
        assertThat(timer.stop()).as("a later stop()").isEmpty();
        int once = 0;
        int twice = 0;
        for (AtomicInteger calls : told) {
            once += calls.get() == 1 ? 1 : 0;
            twice += calls.get() == 2 ? 1 : 0;
        }
        assertThat(twice).as("the callback whose failure escaped, called again by the retry").isOne();
        assertThat(once).as("the others, called once").isEqualTo(PER_TIMER - 1);
    }

    /** Stops the next timer at each level; records what each call returned, or that it overflowed. */
    private static final class StopSweep implements Runnable {

        private final Timer[] timers;
        private final Set<?>[] returnedRaw;
        @SuppressWarnings("unchecked")
        final Set<Timeout>[] returned;
        final boolean[] overflowed;
        int overflows;
        private int next;

        @SuppressWarnings("unchecked")
        StopSweep(final Timer[] timers) {
            this.timers = timers;
            this.returnedRaw = new Set<?>[timers.length];
            this.returned = (Set<Timeout>[]) returnedRaw;
            this.overflowed = new boolean[timers.length];
        }

        @Override
        public void run() {
            if (next == timers.length) {
                return;
            }
            int index = next++;
            try {
                returned[index] = timers[index].stop();
            } catch (StackOverflowError e) {
                overflowed[index] = true;
                overflows++;
            }
        }
    }
}
