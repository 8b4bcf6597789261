package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A cancelled timeout lets go of its task at once: request-timeout users keep the request's
 * context in the task, and a timer that held it until a purge (or the deadline, an hour out)
 * would hold every cancelled request. Far fewer cancels than a purge needs are used here.
 */
class CancelledTaskRetentionTest {

    private static final int TASKS = 300;
    private static final int TASK_BYTES = 1 << 20;
    /** Retained heap allowed after the cancels: a tenth of what the tasks hold. */
    private static final long BOUND_BYTES = TASKS * (long) TASK_BYTES / 10;

    static Stream<Supplier<Timer>> timers() {
        return Stream.of(
                () -> HierarchicalWheelTimer.builder().threadFactory(r -> new Thread(r, "retention-timer"))
                        .tickDuration(Duration.ofMillis(1)).build(),
                () -> HashedWheelTimer.builder().threadFactory(r -> new Thread(r, "retention-timer"))
                        .tickDuration(Duration.ofMillis(10)).build());
    }

    /** A request-timeout task holding a request's worth of memory. */
    private static final class HeavyTask implements TimerTask {
        @SuppressWarnings("unused") // held only to be retained, or not
        private final byte[] context = new byte[TASK_BYTES];

        @Override
        public void run(final Timeout timeout) {
            throw new AssertionError("cancelled; never runs");
        }
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        Runtime runtime = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }

    @ParameterizedTest
    @MethodSource("timers")
    void cancel_thousandOfMegabyteTasks_heapIsFreedAtOnceWhileHandlesAreHeld(final Supplier<Timer> make)
            throws Exception {
        Timer timer = make.get();
        try {
            long before = usedHeapAfterGc();
            List<Timeout> handles = new ArrayList<>();
            for (int i = 0; i < TASKS; i++) {
                handles.add(timer.newTimeout(new HeavyTask(), 1, TimeUnit.HOURS));
            }
            long loaded = usedHeapAfterGc();
            assertThat(loaded - before).as("the tasks are on the heap").isGreaterThan(TASKS * (long) TASK_BYTES / 2);

            handles.forEach(Timeout::cancel);
            long after = usedHeapAfterGc();

            assertThat(after - before).as("heap retained by %d cancelled timeouts (%d MB of tasks)", TASKS,
                    (TASKS * (long) TASK_BYTES) >> 20).isLessThan(BOUND_BYTES);
            assertThat(timer.pendingTimeouts()).isZero();
            assertThat(handles).allMatch(Timeout::isCancelled);
        } finally {
            timer.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("timers")
    void cancel_taskOnlyTheTimerHolds_isCollected(final Supplier<Timer> make) throws Exception {
        Timer timer = make.get();
        try {
            HeavyTask task = new HeavyTask();
            WeakReference<HeavyTask> weak = new WeakReference<>(task);
            Timeout timeout = timer.newTimeout(task, 1, TimeUnit.HOURS);
            task = null; // the timer (and the handle) are all that reach it now

            timeout.cancel();

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (weak.get() != null && System.nanoTime() < deadline) {
                System.gc();
                Thread.sleep(10);
            }
            assertThat(weak.get()).as("the cancelled task, reachable only through the timer").isNull();
        } finally {
            timer.stop();
        }
    }

    /** The task is there for its own cancelled() callback, and released only after it returns. */
    @ParameterizedTest
    @MethodSource("timers")
    void cancel_taskSeesItselfInCancelled_thenTaskIsReleased(final Supplier<Timer> make) {
        Timer timer = make.get();
        try {
            AtomicReference<TimerTask> seenInCallback = new AtomicReference<>();
            TimerTask task = new TimerTask() {
                @Override
                public void run(final Timeout timeout) {
                    throw new AssertionError("cancelled; never runs");
                }

                @Override
                public void cancelled(final Timeout timeout) {
                    seenInCallback.set(timeout.task());
                }
            };
            Timeout timeout = timer.newTimeout(task, 1, TimeUnit.HOURS);
            assertThat(timeout.task()).isSameAs(task);

            assertThat(timeout.cancel()).isTrue();

            assertThat(seenInCallback.get()).isSameAs(task);
            assertThat(timeout.task()).as("task() after cancel() returned").isNull();
            assertThat(timeout.toString()).contains("cancelled");
        } finally {
            timer.stop();
        }
    }

    /** stop() hands back its timeouts for rescheduling: those keep their tasks. */
    @ParameterizedTest
    @MethodSource("timers")
    void stop_returnedTimeouts_keepTheirTasks(final Supplier<Timer> make) {
        Timer timer = make.get();
        TimerTask task = t -> { };
        Timeout timeout = timer.newTimeout(task, 1, TimeUnit.HOURS);

        assertThat(timer.stop()).containsExactly(timeout);

        assertThat(timeout.task()).isSameAs(task);
    }
}
