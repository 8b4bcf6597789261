package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lateness on the real clock, in the style of Netty's on-time test: many timeouts of one delay,
 * each must fire inside [delay, delay + bound). The bound is generous for a loaded two-core
 * machine, but real: a worker that oversleeps by a second, or that only wakes when poked, fails.
 * Nothing in these tests unparks the worker; only the timer's own scheduling path may.
 */
class LatenessBoundTest {

    /** Tick plus scheduling noise on a busy machine; far below the 20-30 s waits elsewhere. */
    private static final long BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    static Stream<Supplier<Timer>> timers() {
        return Stream.of(
                () -> HierarchicalWheelTimer.builder().threadFactory(r -> new Thread(r, "lateness-timer"))
                        .tickDuration(Duration.ofMillis(1)).build(),
                () -> HashedWheelTimer.builder().threadFactory(r -> new Thread(r, "lateness-timer"))
                        .tickDuration(Duration.ofMillis(10)).build(),
                () -> HierarchicalWheelTimer.builder().threadFactory(r -> new Thread(r, "lateness-timer"))
                        .tickDuration(Duration.ofMillis(1)).slotsPerLevel(2).build());
    }

    /** Schedules {@code count} timeouts of each delay; returns each one's lateness past its deadline. */
    private static long[] lateness(final Timer timer, final long[] delaysMillis, final int count)
            throws InterruptedException {
        int total = delaysMillis.length * count;
        AtomicLongArray firedAt = new AtomicLongArray(total);
        long[] deadline = new long[total];
        CountDownLatch fired = new CountDownLatch(total);
        for (int i = 0; i < total; i++) {
            int index = i;
            long delay = TimeUnit.MILLISECONDS.toNanos(delaysMillis[i % delaysMillis.length]);
            deadline[i] = System.nanoTime() + delay;
            timer.newTimeout(t -> {
                firedAt.set(index, System.nanoTime());
                fired.countDown();
            }, delay, TimeUnit.NANOSECONDS);
        }
        long longest = java.util.Arrays.stream(delaysMillis).max().orElse(0);
        assertThat(fired.await(longest + TimeUnit.NANOSECONDS.toMillis(BOUND_NANOS) + 10_000, TimeUnit.MILLISECONDS))
                .as("every timeout fired").isTrue();
        long[] late = new long[total];
        for (int i = 0; i < total; i++) {
            late[i] = firedAt.get(i) - deadline[i];
        }
        return late;
    }

    private static void assertInsideBound(final long[] late) {
        for (int i = 0; i < late.length; i++) {
            assertThat(late[i]).as("timeout %d: fired this many ns after its deadline", i)
                    .isGreaterThanOrEqualTo(0).isLessThan(BOUND_NANOS);
        }
    }

    @ParameterizedTest
    @MethodSource("timers")
    void newTimeout_manyOfOneDelay_eachFiresInsideDelayPlusBound(final Supplier<Timer> make) throws Exception {
        Timer timer = make.get();
        try {
            assertInsideBound(lateness(timer, new long[] {100}, 500));
        } finally {
            timer.stop();
        }
    }

    /**
     * One batch at increasing delays, all scheduled at once: the scheduling path may wake the
     * worker for the earliest; for every later one the worker must wake by itself, from its
     * own timed park, and on time.
     */
    @ParameterizedTest
    @MethodSource("timers")
    void newTimeout_increasingDelaysScheduledAtOnce_workerWakesByItselfForEach(final Supplier<Timer> make)
            throws Exception {
        Timer timer = make.get();
        try {
            assertInsideBound(lateness(timer, new long[] {50, 150, 300, 600, 900}, 4));
        } finally {
            timer.stop();
        }
    }

    /** An idle worker (nothing scheduled, parked without a deadline) is woken by newTimeout alone. */
    @ParameterizedTest
    @MethodSource("timers")
    void newTimeout_afterIdlePeriod_firesInsideDelayPlusBound(final Supplier<Timer> make) throws Exception {
        Timer timer = make.get();
        try {
            lateness(timer, new long[] {1}, 1);
            Thread.sleep(300); // the wheel is empty: the worker parks with no deadline
            assertInsideBound(lateness(timer, new long[] {200}, 1));
        } finally {
            timer.stop();
        }
    }
}
