package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.LogCapture;
import io.tickwheel.TimerTask;
import io.tickwheel.testing.LogBackendDown;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Where grouped timing must not change what the statistics say: a slow-task threshold below a
 * group's tiny budget, a task of tens of microseconds hidden in a group of tiny ones, and a
 * worker that fails in the middle of a group.
 */
class InlineTimingEdgeTest {

    private static final String LOGGER = "io.tickwheel.internal.InlineTimingEdgeTest";
    private static final long US = 1_000;

    /** A clock that only moves when a task says so. */
    private static final class TaskClock implements Clock {
        long now = 1L << 40;

        @Override
        public long nanoTime() {
            return now;
        }
    }

    private final TaskClock clock = new TaskClock();

    private TimeoutNode node(final long runsFor) {
        TimerTask task = timeout -> clock.now += runsFor;
        TimeoutNode node = new TimeoutNode(null, task, 0);
        assertThat(node.tryExpire()).isTrue();
        return node;
    }

    private static StatsSnapshot snapshot(final StatsRecorder stats) {
        return stats.snapshot(() -> 0, () -> 0, 0);
    }

    private void runPass(final InlineTiming timing, final List<TimeoutNode> nodes) {
        timing.passStarted(clock.nanoTime());
        for (TimeoutNode node : nodes) {
            timing.run(node);
        }
        timing.flush();
    }

    @Test
    void aThresholdBelowTheGroupBudget_countsNoTaskThatRanUnderIt() {
        // 10 us: a timer that wants to hear of any task over 10 us. Every task here takes 2 us.
        StatsRecorder stats = new StatsRecorder("T", System.getLogger(LOGGER), 10 * US, false);
        InlineTiming timing = new InlineTiming(clock, stats);
        List<TimeoutNode> nodes = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN + 4 * InlineTiming.GROUP; i++) {
            nodes.add(node(2 * US));
        }
        Logger jul = Logger.getLogger(LOGGER);
        jul.setUseParentHandlers(false); // any false WARNING stays off the console
        try {
            runPass(timing, nodes);
        } finally {
            jul.setUseParentHandlers(true);
        }
        StatsSnapshot snapshot = snapshot(stats);
        assertThat(snapshot.get(StatsSnapshot.Counter.SLOW_TASKS)).as("no task ran 10 us").isZero();
        assertThat(snapshot.taskTime().max()).isLessThan(10 * US);
    }

    @Test
    void aThresholdBelowTheGroupBudget_stillCatchesASlowTaskAmongTinyOnes() {
        StatsRecorder stats = new StatsRecorder("T", System.getLogger(LOGGER), 10 * US, false);
        InlineTiming timing = new InlineTiming(clock, stats);
        List<TimeoutNode> nodes = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN; i++) {
            nodes.add(node(100));
        }
        nodes.add(node(12 * US)); // slow, yet a group of tiny tasks around it would stay under GROUP x 5 us
        for (int i = 1; i < InlineTiming.GROUP; i++) {
            nodes.add(node(100));
        }
        Logger jul = Logger.getLogger(LOGGER);
        jul.setUseParentHandlers(false);
        try {
            runPass(timing, nodes);
        } finally {
            jul.setUseParentHandlers(true);
        }
        StatsSnapshot snapshot = snapshot(stats);
        assertThat(snapshot.get(StatsSnapshot.Counter.SLOW_TASKS)).isEqualTo(1);
        assertThat(snapshot.taskTime().max()).as("the slow task's time, not a share of it")
                .isGreaterThanOrEqualTo(12 * US);
    }

    @Test
    void aSlowTaskUnderAMillisecond_isLoggedInMicroseconds() {
        StatsRecorder stats = new StatsRecorder("T", System.getLogger(LOGGER), 10 * US, false);
        InlineTiming timing = new InlineTiming(clock, stats);
        List<String> records;
        try (LogCapture log = LogCapture.of(LOGGER)) {
            runPass(timing, List.of(node(12 * US)));
            records = log.messages();
        }
        assertThat(records).hasSize(1);
        assertThat(records.get(0)).contains("ran for 12 us (slow-task threshold 10 us)");
    }

    @Test
    void aGroupsTime_isRecordedInFull_whenItDoesNotDivideEvenly() {
        StatsRecorder stats = new StatsRecorder("T", System.getLogger(LOGGER), 100_000 * US, false);
        InlineTiming timing = new InlineTiming(clock, stats);
        List<TimeoutNode> nodes = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN + InlineTiming.GROUP - 1; i++) {
            nodes.add(node(100));
        }
        nodes.add(node(107)); // the group ran 100 ns per task and 7 ns over
        runPass(timing, nodes);
        HistogramData time = snapshot(stats).taskTime();
        assertThat(time.count()).isEqualTo(InlineTiming.SOLO_RUN + InlineTiming.GROUP);
        assertThat(time.sum()).as("the sum is the clock's total, with no remainder dropped")
                .isEqualTo(100L * (InlineTiming.SOLO_RUN + InlineTiming.GROUP) + 7);
    }

    /** Builds the tasks out of the caller's frame, so only the timing can keep them reachable. */
    private List<WeakReference<TimerTask>> failMidGroup(final InlineTiming timing) {
        List<WeakReference<TimerTask>> grouped = new ArrayList<>();
        timing.passStarted(clock.nanoTime());
        for (int i = 0; i < InlineTiming.SOLO_RUN; i++) {
            timing.run(node(100));
        }
        for (int i = 0; i < 3; i++) {
            TimeoutNode node = node(100);
            grouped.add(new WeakReference<>(node.task()));
            timing.run(node);
        }
        TimeoutNode failing = new TimeoutNode(null, timeout -> {
            throw new IllegalStateException("expected by the test");
        }, 0);
        assertThat(failing.tryExpire()).isTrue();
        // The task's failure is logged, and the logging backend throws: the worker fails here.
        assertThatThrownBy(() -> timing.run(failing)).hasMessage("backend down");
        return grouped;
    }

    @Test
    void aWorkerFailingMidGroup_recordsWhatTheGroupRan_andLetsGoOfItsTasks() throws InterruptedException {
        StatsRecorder stats = new StatsRecorder("T", System.getLogger(LOGGER), 100_000 * US, false);
        InlineTiming timing = new InlineTiming(clock, stats);
        List<WeakReference<TimerTask>> grouped;
        LogBackendDown down = new LogBackendDown(TimeoutNode.class.getName(), "backend down");
        try {
            grouped = failMidGroup(timing);
        } finally {
            down.close();
        }
        assertThat(snapshot(stats).taskTime().count()).as("the three tasks that completed in the open group")
                .isGreaterThanOrEqualTo(InlineTiming.SOLO_RUN + 3);
        // The worker (and its InlineTiming) stays reachable from the stopped timer.
        for (int attempt = 0; attempt < 50 && grouped.stream().anyMatch(ref -> ref.get() != null); attempt++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(grouped).as("tasks still held by the failed group").allMatch(ref -> ref.get() == null);
        assertThat(timing).isNotNull(); // held to the end, as the worker holds it
    }
}
