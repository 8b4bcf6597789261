package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.internal.StatsRecorder;
import io.tickwheel.internal.StatsSnapshot;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** The recorder and the public snapshot it feeds, driven directly (no worker, no clock). */
class StatsRecorderTest {

    private static final String LOGGER = "io.tickwheel.StatsRecorderTest";

    private static StatsRecorder recorder(final boolean onExecutor) {
        return new StatsRecorder("TestTimer", System.getLogger(LOGGER), TimeUnit.MILLISECONDS.toNanos(100), onExecutor);
    }

    private static TimerStats stats(final StatsRecorder recorder, final long cancelled, final long scheduled,
            final long rejected) {
        return new TimerStats(recorder.snapshot(() -> cancelled, () -> scheduled, rejected));
    }

    @Test
    void counters_followWhatWasRecorded_andPendingIsTheRemainder() {
        StatsRecorder recorder = recorder(false);
        recorder.expired(1_000);
        recorder.expired(3_000);
        recorder.drained();
        recorder.wokeUp();
        recorder.taskRan("a", 10, false);
        recorder.taskRan("b", 20, true);
        recorder.executorRejected();
        TimerStats stats = stats(recorder, 4, 10, 7);
        assertThat(stats.scheduled()).isEqualTo(10);
        assertThat(stats.expired()).isEqualTo(2);
        assertThat(stats.cancelled()).as("4 by callers + 1 returned by stop()").isEqualTo(5);
        assertThat(stats.pending()).isEqualTo(3);
        assertThat(stats.scheduled()).isEqualTo(stats.expired() + stats.cancelled() + stats.pending());
        assertThat(stats.rejected()).isEqualTo(7);
        assertThat(stats.taskFailures()).isEqualTo(1);
        assertThat(stats.executorRejections()).isEqualTo(1);
        assertThat(stats.wakeups()).isEqualTo(1);
        assertThat(stats.slowTasks()).isZero();
        assertThat(stats.lateness().count()).isEqualTo(2);
        assertThat(stats.lateness().max()).isEqualTo(3_000);
        assertThat(stats.lateness().sum()).isEqualTo(4_000);
        assertThat(stats.lateness().valueAtPercentile(50)).as("the top of 1000's bucket").isEqualTo(1_023);
        assertThat(stats.taskTime().count()).isEqualTo(2);
        assertThat(stats.taskTime().valueAtPercentile(100)).isEqualTo(20);
        assertThat(stats.toString()).contains("scheduled=10", "expired=2", "cancelled=5", "pending=3");
    }

    @Test
    void slowTask_isLoggedOnceWithItsNameAndTime_andCounted() {
        StatsRecorder recorder = recorder(true);
        try (LogCapture log = LogCapture.of(LOGGER)) {
            recorder.taskRan("the-slow-one", TimeUnit.MILLISECONDS.toNanos(150), false);
            recorder.taskRan("quick", TimeUnit.MILLISECONDS.toNanos(99), false);
            assertThat(log.lines(Level.WARNING)).singleElement().asString()
                    .contains("the-slow-one", "150 ms", "100 ms", "TestTimer");
        }
        assertThat(stats(recorder, 0, 2, 0).slowTasks()).isEqualTo(1);
    }

    @Test
    void slowTask_withAThrowingToString_isStillLoggedAndCounted() {
        StatsRecorder recorder = recorder(false);
        Object task = new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("broken toString");
            }
        };
        try (LogCapture log = LogCapture.of(LOGGER)) {
            recorder.taskRan(task, TimeUnit.SECONDS.toNanos(1), false);
            assertThat(log.lines(Level.WARNING)).singleElement().asString().contains("its toString() threw", "1000 ms");
        }
        assertThat(stats(recorder, 0, 1, 0).slowTasks()).isEqualTo(1);
    }

    @Test
    void slowTaskThreshold_zero_turnsDetectionOff() {
        StatsRecorder recorder = new StatsRecorder("TestTimer", System.getLogger(LOGGER), 0, false);
        recorder.taskRan("long", TimeUnit.SECONDS.toNanos(10), false);
        assertThat(stats(recorder, 0, 1, 0).slowTasks()).isZero();
    }

    @Test
    void minus_subtractsCounts_keepsPending_andSubtractsHistograms() {
        StatsRecorder recorder = recorder(false);
        recorder.expired(5_000_000);
        recorder.taskRan("t", 1_000, false);
        TimerStats before = stats(recorder, 1, 4, 0);
        recorder.expired(2_000);
        recorder.expired(3_000);
        recorder.wokeUp();
        recorder.taskRan("t", 2_000, true);
        TimerStats after = stats(recorder, 2, 9, 3);
        TimerStats interval = after.minus(before);
        assertThat(interval.scheduled()).isEqualTo(5);
        assertThat(interval.expired()).isEqualTo(2);
        assertThat(interval.cancelled()).isEqualTo(1);
        assertThat(interval.rejected()).isEqualTo(3);
        assertThat(interval.pending()).as("a level: the later snapshot's").isEqualTo(after.pending()).isEqualTo(4);
        assertThat(interval.taskFailures()).isEqualTo(1);
        assertThat(interval.wakeups()).isEqualTo(1);
        assertThat(interval.lateness().count()).isEqualTo(2);
        assertThat(interval.lateness().sum()).isEqualTo(5_000);
        assertThat(interval.lateness().max()).as("the interval's, not the lifetime 5 ms").isBetween(3_000L, 3_071L);
        assertThat(interval.taskTime().count()).isEqualTo(1);
        assertThat(interval.minus(interval).lateness().count()).isZero();
    }

    @Test
    void snapshot_isImmutable_laterRecordingDoesNotChangeIt() {
        StatsRecorder recorder = recorder(false);
        recorder.expired(1_000);
        TimerStats first = stats(recorder, 0, 1, 0);
        recorder.expired(9_999_999);
        recorder.taskRan("t", 5, true);
        recorder.wokeUp();
        assertThat(first.expired()).isEqualTo(1);
        assertThat(first.lateness().count()).isEqualTo(1);
        assertThat(first.lateness().max()).isEqualTo(1_000);
        assertThat(first.taskTime().count()).isZero();
        assertThat(first.taskFailures()).isZero();
        assertThat(first.wakeups()).isZero();
        assertThat(StatsSnapshot.EMPTY.lateness().count()).isZero();
    }
}
