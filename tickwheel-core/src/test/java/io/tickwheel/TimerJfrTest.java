package io.tickwheel;

import static io.tickwheel.TimerContractSupport.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.internal.JfrSupport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real timer under a JFR recording written to a file, read back with jdk.jfr.consumer. */
class TimerJfrTest {

    @TempDir
    Path dir;

    @Test
    void slowTaskAndStatistics_ofARealTimer_areInTheRecording() throws Exception {
        Path file = dir.resolve("timer.jfr");
        AtomicInteger ran = new AtomicInteger();
        HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder()
                .threadFactory(runnable -> new Thread(runnable, "jfr-test-worker"))
                .slowTaskThreshold(Duration.ofMillis(20)).build();
        try (Recording recording = new Recording()) {
            recording.enable("io.tickwheel.SlowTask");
            recording.enable("io.tickwheel.TimerStatistics").withPeriod(Duration.ofMillis(50));
            recording.start();
            timer.newTimeout(new TimerTask() {
                @Override
                public void run(final Timeout timeout) throws InterruptedException {
                    Thread.sleep(40);
                    ran.incrementAndGet();
                }

                @Override
                public String toString() {
                    return "the-slow-task";
                }
            }, 1, TimeUnit.MILLISECONDS);
            for (int i = 0; i < 9; i++) {
                timer.newTimeout(t -> ran.incrementAndGet(), 2 + i, TimeUnit.MILLISECONDS);
            }
            awaitUntil(() -> ran.get() == 10);
            assertThat(timer.stats().expired()).isEqualTo(10);
            // The recording made JFR call the hook back; then two more periods show the final counts.
            awaitUntil(JfrSupport::statisticsHooked);
            Thread.sleep(300);
            recording.stop();
            recording.dump(file);
        } finally {
            timer.stop();
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        List<RecordedEvent> slow = events.stream()
                .filter(e -> e.getEventType().getName().equals("io.tickwheel.SlowTask"))
                .filter(e -> e.getString("timerName").contains("jfr-test-worker")).collect(Collectors.toList());
        // On a loaded machine a trivial task can be descheduled past 20 ms too: each is its own event.
        assertThat(slow.stream().filter(e -> e.getString("taskName").equals("the-slow-task"))).singleElement()
                .satisfies(e -> {
                    assertThat(e.getString("timerName")).isEqualTo("HierarchicalWheelTimer (jfr-test-worker)");
                    assertThat(e.getDuration("taskDuration")).isBetween(Duration.ofMillis(40), Duration.ofSeconds(30));
                    assertThat(e.getThread().getJavaName()).isEqualTo("jfr-test-worker");
                });
        List<RecordedEvent> statistics = events.stream()
                .filter(e -> e.getEventType().getName().equals("io.tickwheel.TimerStatistics"))
                .filter(e -> "HierarchicalWheelTimer (jfr-test-worker)".equals(e.getString("timerName")))
                .collect(Collectors.toList());
        assertThat(statistics).isNotEmpty();
        RecordedEvent last = statistics.get(statistics.size() - 1);
        assertThat(last.getLong("scheduled")).isEqualTo(10);
        assertThat(last.getLong("expired")).isEqualTo(10);
        assertThat(last.getLong("pending")).isZero();
        assertThat(last.getLong("slowTasks")).isEqualTo(slow.size());
        assertThat(last.getDuration("taskTimeMax")).isGreaterThanOrEqualTo(Duration.ofMillis(40));
        assertThat(last.getDuration("latenessMax")).isLessThan(Duration.ofSeconds(30));
    }
}
