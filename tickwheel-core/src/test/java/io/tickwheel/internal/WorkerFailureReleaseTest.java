package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.TimerTask;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A worker that fails outside a task, after it timed tasks in groups, keeps none of those tasks
 * reachable: its stopped timer keeps the worker, and with it the timing's group slots.
 */
class WorkerFailureReleaseTest {

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long ORIGIN = 1L << 40;
    /** The worker's logger: the timer's name under io.tickwheel. */
    private static final String LOGGER = "io.tickwheel.WorkerFailureReleaseTest";

    /** A wheel that expires the nodes it was given on its first advance, then breaks. */
    private static final class BreakingWheel extends IdleWheel {
        private List<TimeoutNode> due;

        BreakingWheel(final List<TimeoutNode> due) {
            super(ORIGIN, TICK);
            this.due = due;
        }

        @Override
        void place(final TimeoutNode node, final long tick) {
            throw new AssertionError("nothing is queued in this test");
        }

        @Override
        public void advance(final long nowNanos, final Consumer<TimeoutNode> sink) {
            List<TimeoutNode> nodes = due;
            due = null;
            nodes.forEach(sink);
            throw new IllegalStateException("expected by the test: the wheel broke after its tasks ran");
        }
    }

    @Test
    void aWorkerFailingOutsideATask_letsGoOfTheTasksItTimedInGroups() throws InterruptedException {
        List<WeakReference<TimerTask>> tasks = new ArrayList<>();
        StatsRecorder[] stats = new StatsRecorder[1];
        Worker worker = failAfterGrouping(tasks, stats);
        for (int attempt = 0; attempt < 50 && tasks.stream().anyMatch(ref -> ref.get() != null); attempt++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(tasks).as("tasks still held by the failed worker").allMatch(ref -> ref.get() == null);
        assertThat(worker.unprocessed()).isEmpty(); // the worker itself stays reachable, as a stopped timer keeps it
        StatsSnapshot snapshot = stats[0].snapshot(() -> 0, () -> 0, 0);
        assertThat(snapshot.get(StatsSnapshot.Counter.EXPIRED)).isEqualTo(tasks.size());
        assertThat(snapshot.taskTime().count()).as("every task ran and was timed, the open group's too")
                .isEqualTo(tasks.size());
    }

    /** Builds the nodes out of the caller's frame, so only the worker can keep their tasks. */
    private static Worker failAfterGrouping(final List<WeakReference<TimerTask>> tasks,
            final StatsRecorder[] statsOut) {
        List<TimeoutNode> due = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN + InlineTiming.GROUP + 3; i++) {
            int[] runs = new int[1];
            TimerTask task = timeout -> runs[0]++; // captures, so each is an object of its own
            tasks.add(new WeakReference<>(task));
            TimeoutNode node = new TimeoutNode(null, task, ORIGIN);
            due.add(node);
        }
        TimerOptions options = new TimerOptions(TimerOptions.Kind.HASHED, "WorkerFailureReleaseTest")
                .clock(() -> ORIGIN + TICK).slowTaskNanos(TimeUnit.SECONDS.toNanos(1));
        StatsRecorder stats = new StatsRecorder("T", options.logger(), TimeUnit.SECONDS.toNanos(1), false);
        statsOut[0] = stats;
        Worker worker = new Worker(new PassesControl(Long.MAX_VALUE), new HandOff(0), new BreakingWheel(due), options,
                ORIGIN, stats);
        Logger jul = Logger.getLogger(LOGGER);
        boolean parents = jul.getUseParentHandlers();
        jul.setUseParentHandlers(false); // the expected ERROR stays off the console
        try {
            assertThat(worker.runIfFirst()).isTrue();
        } finally {
            jul.setUseParentHandlers(parents);
        }
        return worker;
    }

    @Test
    void theFailuresLogging_isNotChargedToTheOpenGroup() {
        long[] now = {ORIGIN + TICK};
        List<TimeoutNode> due = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN + 3; i++) {
            due.add(new TimeoutNode(null, timeout -> { }, ORIGIN));
        }
        long slow = TimeUnit.MILLISECONDS.toNanos(1); // groups still allowed: over 16 x 5 us
        TimerOptions options = new TimerOptions(TimerOptions.Kind.HASHED, "WorkerFailureReleaseTest")
                .clock(() -> now[0]).slowTaskNanos(slow);
        StatsRecorder stats = new StatsRecorder("T", options.logger(), slow, false);
        Worker worker = new Worker(new PassesControl(Long.MAX_VALUE), new HandOff(0), new BreakingWheel(due), options,
                ORIGIN, stats);
        Logger jul = Logger.getLogger(LOGGER);
        Handler slowBackend = new Handler() {
            @Override
            public void publish(final LogRecord logRecord) {
                now[0] += TimeUnit.MILLISECONDS.toNanos(10); // writing the stack trace takes 10 ms
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        boolean parents = jul.getUseParentHandlers();
        jul.setUseParentHandlers(false);
        jul.addHandler(slowBackend);
        try {
            assertThat(worker.runIfFirst()).isTrue();
        } finally {
            jul.removeHandler(slowBackend);
            jul.setUseParentHandlers(parents);
        }
        StatsSnapshot snapshot = stats.snapshot(() -> 0, () -> 0, 0);
        assertThat(snapshot.taskTime().count()).isEqualTo(due.size());
        assertThat(snapshot.get(StatsSnapshot.Counter.SLOW_TASKS)).as("the log ran after the group's end").isZero();
        assertThat(snapshot.taskTime().max()).isZero();
    }
}
