package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A real {@link StackOverflowError} at every point of {@code newTimeout}: a thread recurses until
 * its stack overflows, then calls {@code newTimeout} at each of the deepest levels as it unwinds,
 * so that successive calls run out of stack one frame later each time, across every call the
 * schedule path makes (the pending limit, the node's constructor, the hand-off, the wake-up). After
 * many such sweeps the timer must still work: {@code stop()} returns, the pending count equals
 * what {@code stop()} returns, and the pending limit lets in exactly as many more as it should (no slot leaked).
 */
class ScheduleStackOverflowTest {

    private static final int ROUNDS = 300;
    /** How many of the deepest levels call newTimeout on the way up. */
    private static final int WINDOW = 300;
    /** How many of the deepest levels also call it through 1 to {@link #PADS} extra frames. */
    private static final int PADDED_LEVELS = 4;
    private static final int PADS = 8;
    /** The most newTimeout calls one sweep makes. */
    private static final int PER_SWEEP = WINDOW + PADDED_LEVELS * PADS;
    private static final TimerTask TASK = timeout -> { };

    static Stream<LongFunction<Timer>> timers() {
        return Stream.of(
                max -> HierarchicalWheelTimer.builder().threadFactory(ScheduleStackOverflowTest::daemon)
                        .tickDuration(Duration.ofMillis(1)).maxPendingTimeouts(max).build(),
                max -> HashedWheelTimer.builder().threadFactory(ScheduleStackOverflowTest::daemon)
                        .tickDuration(Duration.ofMillis(10)).maxPendingTimeouts(max).build());
    }

    private static Thread daemon(final Runnable r) {
        Thread thread = new Thread(r, "stack-overflow-test-timer");
        thread.setDaemon(true);
        return thread;
    }

    /** One thread's sweep; its fields are written by that thread only, read after join. */
    private static final class Sweep implements Runnable {
        final Timer timer;
        final Timeout[] handles = new Timeout[PER_SWEEP + 1];
        int accepted;
        int overflows;
        int bottom = -1;

        Sweep(final Timer timer) {
            this.timer = timer;
        }

        @Override
        public void run() {
            deeper(0);
        }

        @SuppressWarnings("InfiniteRecursion") // reason: it recurses until the stack overflows, on purpose
        private void deeper(final int depth) {
            try {
                deeper(depth + 1);
            } catch (StackOverflowError e) {
                if (bottom < 0) {
                    bottom = depth;
                }
            }
            if (depth > bottom - WINDOW) {
                schedule();
                if (depth > bottom - PADDED_LEVELS) {
                    // deeper()'s frame is the sweep's step, and the JIT may make it as big as the
                    // whole schedule path: then no call would overflow inside it. A few small frames
                    // more before the call meet the stack's end at finer steps.
                    for (int pad = 1; pad <= PADS; pad++) {
                        try {
                            padded(pad);
                        } catch (StackOverflowError e) {
                            // struck in the padding, before newTimeout was called: nothing to count
                        }
                    }
                }
            }
        }

        private void padded(final int pad) {
            if (pad == 0) {
                schedule();
            } else {
                padded(pad - 1);
            }
        }

        /** Counts only what strikes in newTimeout (or at its call): the catch is right around it. */
        private void schedule() {
            try {
                // An array store: a call here would overflow too and lose the handle.
                handles[accepted] = timer.newTimeout(TASK, 1, TimeUnit.HOURS);
                accepted++;
            } catch (StackOverflowError e) {
                overflows++;
            }
        }
    }

    /** Runs the sweeps; returns every handle a newTimeout call returned. */
    private static Set<Timeout> sweep(final Timer timer) throws InterruptedException {
        Set<Timeout> accepted = new HashSet<>();
        long overflows = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Sweep sweep = new Sweep(timer);
            Thread thread = new Thread(null, sweep, "stack-overflow-sweep", 256 * 1024);
            thread.start();
            thread.join();
            for (int i = 0; i < sweep.accepted; i++) {
                accepted.add(sweep.handles[i]);
            }
            overflows += sweep.overflows;
        }
        assertThat(overflows).as("newTimeout calls that overflowed the stack").isGreaterThan(ROUNDS);
        return accepted;
    }

    /** Stops the timer on another thread, so that a wedged worker fails the test instead of hanging it. */
    private static Set<Timeout> stopWithin(final Timer timer, final long seconds) throws InterruptedException {
        AtomicReference<Set<Timeout>> returned = new AtomicReference<>();
        Thread stopper = new Thread(() -> returned.set(timer.stop()), "stack-overflow-test-stopper");
        stopper.setDaemon(true);
        stopper.start();
        stopper.join(TimeUnit.SECONDS.toMillis(seconds));
        assertThat(stopper.isAlive()).as("stop() still waiting for the worker after %d s", seconds).isFalse();
        return returned.get();
    }

    @ParameterizedTest
    @MethodSource("timers")
    void newTimeout_stackOverflowsAtEveryDepth_timerKeepsWorkingAndCountIsExact(final LongFunction<Timer> make)
            throws Exception {
        Timer timer = make.apply(0);
        timer.newTimeout(TASK, 1, TimeUnit.HOURS); // starts the worker outside the sweep
        Set<Timeout> accepted = sweep(timer);
        CountDown fired = new CountDown();
        timer.newTimeout(fired, 1, TimeUnit.MILLISECONDS);
        assertThat(fired.await()).as("a timeout scheduled after the sweeps fires").isTrue();

        long pending = timer.pendingTimeouts();
        Set<Timeout> returned = stopWithin(timer, 10);

        // Set.containsAll (hashing): AssertJ's containsAll compares element by element.
        assertThat(returned.containsAll(accepted)).as("stop() returns every accepted timeout").isTrue();
        assertThat(returned).as("pendingTimeouts() before stop() equals what stop() returned").hasSize((int) pending);
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @ParameterizedTest
    @MethodSource("timers")
    void newTimeout_stackOverflowsAtEveryDepth_pendingLimitPermitsEqualPendingTimeouts(
            final LongFunction<Timer> make) throws Exception {
        long max = (long) ROUNDS * PER_SWEEP + 1_000;
        Timer timer = make.apply(max);
        timer.newTimeout(TASK, 1, TimeUnit.HOURS);
        sweep(timer);

        long pending = timer.pendingTimeouts();
        long more = 0;
        try {
            while (more <= max) {
                timer.newTimeout(TASK, 1, TimeUnit.HOURS);
                more++;
            }
        } catch (RejectedExecutionException expected) {
            // the limit is reached
        }

        assertThat(pending + more).as("pending timeouts (%d) plus those the limit still let in", pending)
                .isEqualTo(max);
        assertThat(stopWithin(timer, 10)).hasSize((int) max);
    }

    /** A task that counts down once it runs. */
    private static final class CountDown implements TimerTask {
        private final java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);

        @Override
        public void run(final Timeout timeout) {
            ran.countDown();
        }

        boolean await() throws InterruptedException {
            return ran.await(10, TimeUnit.SECONDS);
        }
    }
}
