package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A close called on an interrupted thread (a shutdown path, a task cancelled with an interrupt).
 * Before the fix the interrupted join on the scanner skipped the writer's stop signal: the writer
 * kept its hold on the files, the directory stayed locked for the JVM's life, and a second close
 * returned at once. Close must still stop every thread, release the directory, and leave the
 * caller's interrupt set.
 */
class InterruptedCloseTest {

    @TempDir
    Path dir;

    private final List<DurableTimeout> runs = new CopyOnWriteArrayList<>();

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted(); // never leak an interrupt into the next test, whatever failed
    }

    @Test
    void closeOnAnInterruptedThread_releasesTheDirectoryAndKeepsTheInterrupt() {
        JournalStore store = JournalStore.builder(dir).closeWait(Duration.ofSeconds(5)).build();
        DurableTimer timer = DurableTimer.builder(store).handler("t", runs::add).build();
        timer.schedule("t", "a", new byte[] {1}, Duration.ofHours(1));

        Thread.currentThread().interrupt();
        timer.close();
        boolean stillInterrupted = Thread.interrupted();

        assertThat(stillInterrupted).as("close re-asserts the caller's interrupt").isTrue();
        await("the writer and the scanner end and let go of the files").atMost(Duration.ofSeconds(5))
                .until(store::released);
        try (DurableTimer again = DurableTimer.builder(JournalStore.open(dir)).handler("t", runs::add).build()) {
            assertThat(again.find("t", "a")).as("the acknowledged schedule").isPresent();
        }
        assertThat(runs).isEmpty();
    }
}
