package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.LogCapture;
import io.tickwheel.TimerTask;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The worker's timing of the tasks it runs itself, on a clock that only its tasks move: exact
 * per task until a run of tiny tasks, per group of a pass after it (across passes too), and a
 * slow task in a group named among its group.
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
        assertThat(group).contains("One of the TimerTasks before, blocker, after2",
                "or after" + (InlineTiming.GROUP - 1), "up to 150 ms");
        assertThat(records.get(1)).contains("TimerTask timed-alone of T ran for 120 ms")
                .doesNotContain("One of");
        HistogramData time = taskTime();
        assertThat(time.count()).isEqualTo(InlineTiming.SOLO_RUN + InlineTiming.GROUP + 1L);
        assertThat(time.max()).as("an upper bound on the slow one: the whole group")
                .isGreaterThanOrEqualTo(150 * MS).isLessThan(150 * MS + 100L * InlineTiming.GROUP);
        assertThat(time.sum())
                .isEqualTo(100L * InlineTiming.SOLO_RUN + 150 * MS + 100L * (InlineTiming.GROUP - 1) + 120 * MS);
    }

    @Test
    void aSlowLogHandler_isNoTasksTime_soTwoSlowTasksAmongFastOnesAreTwoReports() {
        List<TimeoutNode> nodes = new ArrayList<>();
        long ran = 0;
        for (int i = 0; i < InlineTiming.SOLO_RUN + 1; i++) {
            nodes.add(node("tiny" + i, 100));
            ran += 100;
        }
        nodes.add(node("blocker", 150 * MS)); // in a group
        ran += 150 * MS;
        for (int i = 0; i < 4 * InlineTiming.SOLO_RUN; i++) {
            boolean second = i == InlineTiming.SOLO_RUN / 2; // timed alone, grouping not yet back
            nodes.add(second ? node("second", 120 * MS) : node("fast" + i, 100));
            ran += second ? 120 * MS : 100;
        }
        List<String> reports = new ArrayList<>();
        // Each record takes 200 ms of the worker's clock, more than the threshold: a blocking
        // logging backend, or JUL's first-time set-up, seen from the worker. Records arrive on
        // this thread (the worker's), so a plain list will do.
        Handler slowHandler = new Handler() {
            @Override
            public void publish(final LogRecord logRecord) {
                reports.add(logRecord.getMessage());
                clock.now += 200 * MS;
            }

            @Override
            public void flush() {
                // nothing buffered
            }

            @Override
            public void close() {
                // nothing to release
            }
        };
        Logger jul = Logger.getLogger(LOGGER);
        Handler[] handlers = jul.getHandlers();
        boolean parentHandlers = jul.getUseParentHandlers();
        try {
            for (Handler handler : handlers) {
                jul.removeHandler(handler);
            }
            jul.addHandler(slowHandler);
            jul.setUseParentHandlers(false);
            runPass(nodes);
        } finally {
            jul.removeHandler(slowHandler);
            for (Handler handler : handlers) {
                jul.addHandler(handler);
            }
            jul.setUseParentHandlers(parentHandlers);
        }
        assertThat(reports).as("the blocker's group and the second one, not the tasks after each report")
                .hasSize(2);
        assertThat(reports.get(0)).contains("blocker", "up to 150 ms");
        assertThat(reports.get(1)).contains("TimerTask second of T ran for 120 ms");
        assertThat(new TimerStatsView(stats).slowTasks).isEqualTo(2);
        HistogramData time = taskTime();
        assertThat(time.count()).isEqualTo(nodes.size());
        assertThat(time.sum()).as("the tasks' time, none of the handler's").isEqualTo(ran);
    }

    @Test
    void aRunOfTinyTasks_goesOnAcrossPasses_soTheNextPassIsTimedPerGroup() {
        List<TimeoutNode> first = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN; i++) {
            first.add(node("t" + i, 100));
        }
        runPass(first);
        List<TimeoutNode> second = new ArrayList<>();
        for (int i = 0; i < 2 * InlineTiming.GROUP + 1; i++) {
            second.add(node("s" + i, 300));
        }
        int readsBefore = clock.reads;
        runPass(second);
        assertThat(clock.reads - readsBefore).as("the pass's reading, two full groups and the flushed one")
                .isEqualTo(1 + 2 + 1);
        HistogramData time = taskTime();
        assertThat(time.count()).isEqualTo(InlineTiming.SOLO_RUN + 2L * InlineTiming.GROUP + 1);
        assertThat(time.sum()).isEqualTo(100L * InlineTiming.SOLO_RUN + 300L * (2 * InlineTiming.GROUP + 1));
        assertThat(time.max()).isEqualTo(300);
    }

    @Test
    void aPassOfOneTask_isTimedAndDatedExactly_evenOnceGroupingHasStarted() {
        List<TimeoutNode> tiny = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN; i++) {
            tiny.add(node("t" + i, 100));
        }
        runPass(tiny);
        List<String> records;
        try (LogCapture log = LogCapture.of(LOGGER)) {
            runPass(List.of(node("alone", 4_000)));
            long start = clock.now;
            timing.passStarted(clock.nanoTime());
            assertThat(timing.fireNanos()).as("a pass's first fire: its own reading").isEqualTo(start);
            timing.run(node("blocker", 130 * MS));
            timing.flush();
            records = log.messages();
        }
        HistogramData time = taskTime();
        assertThat(time.count()).isEqualTo(InlineTiming.SOLO_RUN + 2L);
        assertThat(time.sum()).isEqualTo(100L * InlineTiming.SOLO_RUN + 4_000 + 130 * MS);
        assertThat(time.max()).isGreaterThanOrEqualTo(130 * MS).isLessThan(130 * MS + 1_000);
        assertThat(records).as("a group of one names its task alone").hasSize(1);
        assertThat(records.get(0)).contains("TimerTask blocker of T ran for 130 ms").doesNotContain("One of");
    }

    @Test
    void theEndOfAPass_letsGoOfTheTasksItsGroupsHeld() throws InterruptedException {
        List<WeakReference<TimerTask>> held = groupAPassAndForgetIt();
        for (int attempt = 0; attempt < 50 && held.stream().anyMatch(ref -> ref.get() != null); attempt++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(held).as("tasks still held by a parked worker's timing").allMatch(ref -> ref.get() == null);
        assertThat(timing).isNotNull(); // the worker holds it while it parks
    }

    /** Builds the tasks out of the caller's frame, so only the timing can keep them reachable. */
    private List<WeakReference<TimerTask>> groupAPassAndForgetIt() {
        List<WeakReference<TimerTask>> held = new ArrayList<>();
        List<TimeoutNode> nodes = new ArrayList<>();
        for (int i = 0; i < InlineTiming.SOLO_RUN + InlineTiming.GROUP + 3; i++) {
            TimeoutNode node = node("t" + i, 100);
            held.add(new WeakReference<>(node.task()));
            nodes.add(node);
        }
        runPass(nodes);
        assertThat(clock.reads).as("grouping took place").isLessThan(1 + nodes.size());
        return held;
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
