package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.internal.StatsSnapshot.Counter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records to a file and reads the events back, as an operator's tooling would. */
class JfrEventsTest {

    @TempDir
    Path dir;

    @Test
    void jfr_isAvailable_inTheTestRuntime() {
        assertThat(JfrSupport.AVAILABLE).as("jdk.jfr in the module graph (see tickwheel.test.jvmArgs)").isTrue();
    }

    @Test
    void slowTaskAndStatistics_recordedToAFile_readBack() throws Exception {
        StatsRecorder recorder = new StatsRecorder("TestTimer (jfr-1)", System.getLogger("io.tickwheel.JfrEventsTest"),
                TimeUnit.MILLISECONDS.toNanos(100), false);
        StatsSource source = new StatsSource() {
            @Override
            public StatsSnapshot stats() {
                return recorder.snapshot(() -> 1, () -> 5, 2);
            }

            @Override
            public String statsName() {
                return "TestTimer (jfr-1)";
            }
        };
        Path file = dir.resolve("tickwheel.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("io.tickwheel.SlowTask");
            recording.enable("io.tickwheel.TimerStatistics").withPeriod(Duration.ofMillis(50));
            recording.start();
            JfrSupport.register(source);
            recorder.expired(1_500_000);
            recorder.expired(2_500_000);
            recorder.taskRan("fast task", TimeUnit.MILLISECONDS.toNanos(3), false);
            recorder.taskRan("slow task", TimeUnit.MILLISECONDS.toNanos(250), true);
            long hookDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!JfrSupport.statisticsHooked() && System.nanoTime() < hookDeadline) {
                Thread.sleep(10);
            }
            assertThat(JfrSupport.statisticsHooked()).as("the recording made JFR call the hook back").isTrue();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (System.nanoTime() < until) {
                Thread.sleep(50);
            }
            recording.stop();
            recording.dump(file);
        } finally {
            JfrSupport.unregister(source);
        }
        assertThat(Files.size(file)).isPositive();
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        List<RecordedEvent> slow = events.stream()
                .filter(e -> e.getEventType().getName().equals("io.tickwheel.SlowTask"))
                .collect(Collectors.toList());
        assertThat(slow).hasSize(1);
        assertThat(slow.get(0).getString("taskName")).isEqualTo("slow task");
        assertThat(slow.get(0).getString("timerName")).isEqualTo("TestTimer (jfr-1)");
        assertThat(slow.get(0).getDuration("taskDuration")).isEqualTo(Duration.ofMillis(250));

        List<RecordedEvent> statistics = events.stream()
                .filter(e -> e.getEventType().getName().equals("io.tickwheel.TimerStatistics"))
                .filter(e -> "TestTimer (jfr-1)".equals(e.getString("timerName")))
                .collect(Collectors.toList());
        assertThat(statistics).as("periodic events over 2 s at a 50 ms period").hasSizeGreaterThanOrEqualTo(2);
        RecordedEvent last = statistics.get(statistics.size() - 1);
        StatsSnapshot expected = source.stats();
        assertThat(last.getLong("scheduled")).isEqualTo(5);
        assertThat(last.getLong("expired")).isEqualTo(2);
        assertThat(last.getLong("cancelled")).isEqualTo(1);
        assertThat(last.getLong("pending")).isEqualTo(2);
        assertThat(last.getLong("rejected")).isEqualTo(2);
        assertThat(last.getLong("taskFailures")).isEqualTo(1);
        assertThat(last.getLong("slowTasks")).isEqualTo(1);
        assertThat(last.getDuration("latenessMax")).isEqualTo(Duration.ofNanos(expected.lateness().max()));
        assertThat(last.getDuration("latenessP50").toNanos())
                .isEqualTo(expected.lateness().valueAtPercentile(50)).isBetween(1_500_000L, 1_600_000L);
        assertThat(last.getDuration("taskTimeMax")).isEqualTo(Duration.ofMillis(250));
        assertThat(expected.get(Counter.SLOW_TASKS)).isEqualTo(1);
    }

    @Test
    void register_holdsTimersWeakly() throws Exception {
        int before = JfrSupport.registered();
        JfrSupport.register(new StatsSource() {
            @Override
            public StatsSnapshot stats() {
                return StatsSnapshot.EMPTY;
            }

            @Override
            public String statsName() {
                return "dropped";
            }
        });
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (JfrSupport.registered() > before && System.nanoTime() < until) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(JfrSupport.registered()).isLessThanOrEqualTo(before);
    }
}
