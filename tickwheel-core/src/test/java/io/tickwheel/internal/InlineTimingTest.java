package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.LogCapture;
import io.tickwheel.TimerTask;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The worker's timing of the tasks it runs itself, on a clock that only its tasks move: exact
 * per task outside a burst, per group in one, and a slow task in a group named among its group.
 */
class InlineTimingTest {

    private static final String LOGGER = "io.tickwheel.internal.InlineTimingTest";
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SLOW = 100 * MS;

    /** A clock that only moves when a task says so, and counts its readings. */
    private static final class TaskClock implements Clock {
        long now = 1L << 40;
        int reads;

        @Override
        public long nanoTime() {
            reads++;
            return now;
        }
    }

    private final TaskClock clock = new TaskClock();
    private final StatsRecorder stats = new StatsRecorder("T", System.getLogger(LOGGER), SLOW, false);
    private final InlineTiming timing = new InlineTiming(clock, stats);

    private TimeoutNode node(final String name, final long runsFor) {
        TimerTask task = new TimerTask() {
            @Override
            public void run(final io.tickwheel.Timeout timeout) {
                clock.now += runsFor;
            }

            @Override
            public String toString() {
                return name;
            }
        };
        TimeoutNode node = new TimeoutNode(null, task, 0);
        assertThat(node.tryExpire()).isTrue();
        return node;
    }

    private void runPass(final List<TimeoutNode> nodes) {
        timing.passStarted(clock.nanoTime());
        for (TimeoutNode node : nodes) {
            timing.run(node);
        }
        timing.flush();
    }

    private HistogramData taskTime() {
        return stats.snapshot(() -> 0, () -> 0, 0).taskTime();
    }

    @Test
    void aPassOutsideABurst_timesEveryTaskAlone() {
        List<TimeoutNode> nodes = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN; i++) {
            nodes.add(node("t" + i, 100L * (i + 1)));
        }
        runPass(nodes);
        assertThat(clock.reads).as("the pass's reading and one per task").isEqualTo(1 + InlineTiming.SOLO_RUN);
        HistogramData time = taskTime();
        assertThat(time.count()).isEqualTo(InlineTiming.SOLO_RUN);
        assertThat(time.max()).isEqualTo(100L * InlineTiming.SOLO_RUN);
        assertThat(time.sum()).isEqualTo(100L * InlineTiming.SOLO_RUN * (InlineTiming.SOLO_RUN + 1) / 2);
    }

    @Test
    void aBurstOfTinyTasks_isTimedPerGroup_withEveryTaskCountedAndTheTotalExact() {
        int tasks = InlineTiming.SOLO_RUN + 5 * InlineTiming.GROUP + 3;
        List<TimeoutNode> nodes = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
            nodes.add(node("t" + i, 200));
        }
        runPass(nodes);
        assertThat(clock.reads).as("pass + solo run + 5 full groups + the flushed partial one")
                .isEqualTo(1 + InlineTiming.SOLO_RUN + 5 + 1);
        HistogramData time = taskTime();
        assertThat(time.count()).isEqualTo(tasks);
        assertThat(time.sum()).isEqualTo(200L * tasks);
        assertThat(time.max()).isEqualTo(200);
    }

    @Test
    void fireTimes_withinAGroup_areTheGroupsStart() {
        List<TimeoutNode> nodes = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN; i++) {
            nodes.add(node("t" + i, 10));
        }
        timing.passStarted(clock.nanoTime());
        for (TimeoutNode node : nodes) {
            timing.run(node);
        }
        long groupStart = clock.now;
        assertThat(timing.fireNanos()).as("solo: the end of the previous task").isEqualTo(groupStart);
        timing.run(node("g0", 10));
        timing.run(node("g1", 10));
        assertThat(timing.fireNanos()).as("within a group: its start").isEqualTo(groupStart);
        timing.flush();
        assertThat(timing.fireNanos()).isEqualTo(groupStart + 20);
    }

    @Test
    void aSlowTaskInAGroup_isCountedOnce_namedAmongItsGroup_andEndsGrouping() {
        List<String> records;
        try (LogCapture log = LogCapture.of(LOGGER)) {
            List<TimeoutNode> nodes = new ArrayList<>();
            for (int i = 0; i < InlineTiming.SOLO_RUN; i++) {
                nodes.add(node("tiny" + i, 100));
            }
            nodes.add(node("before", 100));
            nodes.add(node("blocker", 150 * MS));
            for (int i = 2; i < InlineTiming.GROUP; i++) {
                nodes.add(node("after" + i, 100));
            }
            nodes.add(node("timed-alone", 120 * MS));
            runPass(nodes);
            records = log.messages();
        }
        TimerStatsView view = new TimerStatsView(stats);
        assertThat(view.slowTasks).as("the group, and the task timed alone after it").isEqualTo(2);
        assertThat(records).hasSize(2);
        String group = records.get(0);
        assertThat(group).contains("One of the TimerTasks before, blocker, after2", "or after7", "up to 150 ms");
        assertThat(records.get(1)).contains("TimerTask timed-alone of T ran for 120 ms")
                .doesNotContain("One of");
        HistogramData time = taskTime();
        assertThat(time.count()).isEqualTo(InlineTiming.SOLO_RUN + InlineTiming.GROUP + 1L);
        assertThat(time.max()).as("an upper bound on the slow one: the whole group")
                .isGreaterThanOrEqualTo(150 * MS).isLessThan(150 * MS + 1_000);
        assertThat(time.sum()).isEqualTo(100L * InlineTiming.SOLO_RUN + 150 * MS + 700 + 120 * MS);
    }

    @Test
    void failuresInAGroup_areCounted() {
        List<TimeoutNode> nodes = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN + InlineTiming.GROUP; i++) {
            boolean throwing = i % 4 == 3;
            TimerTask task = timeout -> {
                if (throwing) {
                    throw new IllegalStateException("expected by the test");
                }
            };
            TimeoutNode node = new TimeoutNode(null, task, 0);
            assertThat(node.tryExpire()).isTrue();
            nodes.add(node);
        }
        LogCapture expectedStackTraces = LogCapture.of(TimeoutNode.class.getName()); // kept off the console
        try {
            runPass(nodes);
        } finally {
            expectedStackTraces.close();
        }
        assertThat(new TimerStatsView(stats).failures).isEqualTo((InlineTiming.SOLO_RUN + InlineTiming.GROUP) / 4);
    }

    /** The two counters these tests read, from a snapshot. */
    private static final class TimerStatsView {
        final long slowTasks;
        final long failures;

        TimerStatsView(final StatsRecorder stats) {
            StatsSnapshot snapshot = stats.snapshot(() -> 0, () -> 0, 0);
            slowTasks = snapshot.get(StatsSnapshot.Counter.SLOW_TASKS);
            failures = snapshot.get(StatsSnapshot.Counter.TASK_FAILURES);
        }
    }
}
