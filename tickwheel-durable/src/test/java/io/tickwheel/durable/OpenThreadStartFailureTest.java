package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JVM that cannot start one of the journal's threads while the timer is built: the build throws
 * the JVM's error, every thread it did start ends, and the directory can be opened again at once,
 * with everything acknowledged before still there.
 */
class OpenThreadStartFailureTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} cannot start")
    @ValueSource(strings = {"tickwheel-journal-writer", "tickwheel-journal-scanner"})
    void aThreadThatCannotStart_failsTheBuildAndLeavesNothingHeld(final String failing) throws Exception {
        try (DurableTimer first = DurableTimer.builder(JournalStore.open(dir)).handler("t", t -> { }).build()) {
            first.schedule("t", "kept", new byte[] {5}, Duration.ofHours(1));
        }
        List<Thread> started = new CopyOnWriteArrayList<>();
        Consumer<Thread> starter = thread -> {
            if (thread.getName().equals(failing)) {
                throw new OutOfMemoryError("unable to create native thread: injected");
            }
            thread.start();
            started.add(thread);
        };
        JournalStore store = JournalStore.builder(dir).threadStarter(starter).build();
        assertThatThrownBy(() -> DurableTimer.builder(store).handler("t", t -> { }).build())
                .isInstanceOf(OutOfMemoryError.class).hasMessageContaining("injected");

        for (Thread t : started) {
            t.join(10_000);
            assertThat(t.isAlive()).as("%s ends", t.getName()).isFalse();
        }
        assertThat(store.released()).as("the files and the directory's lock are let go").isTrue();
        try (DurableTimer again = DurableTimer.builder(JournalStore.open(dir)).handler("t", t -> { }).build()) {
            assertThat(again.find("t", "kept")).hasValueSatisfying(t -> assertThat(t.payload()).containsExactly(5));
        }
    }
}
