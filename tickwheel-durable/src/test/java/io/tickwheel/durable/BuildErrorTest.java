package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An Error (out of memory) after the journal's directory is locked and before the builder hands
 * out the store: nobody holds a store to close, so the build itself must let the directory go,
 * or the journal could not be opened again for the rest of the JVM's life.
 */
class BuildErrorTest {

    @TempDir
    Path dir;

    @Test
    void anErrorAfterTheLock_releasesTheDirectory() throws Exception {
        try (DurableTimer first = DurableTimer.builder(JournalStore.open(dir)).handler("t", t -> { }).build()) {
            first.schedule("t", "kept", new byte[] {7}, Duration.ofHours(1));
        }
        Runnable outOfMemory = () -> {
            throw new OutOfMemoryError("Java heap space: injected after the lock");
        };
        for (int attempt = 0; attempt < 3; attempt++) {
            assertThatThrownBy(() -> JournalStore.builder(dir).afterLock(outOfMemory).build())
                    .isInstanceOf(OutOfMemoryError.class).hasMessageContaining("injected");
        }
        // Opened again at once, in this JVM, with what was acknowledged before.
        try (DurableTimer again = DurableTimer.builder(JournalStore.open(dir)).handler("t", t -> { }).build()) {
            assertThat(again.find("t", "kept")).hasValueSatisfying(t -> assertThat(t.payload()).containsExactly(7));
        }
    }

    @Test
    void aStoreThatIsOpen_stillRefusesASecondBuild() {
        try (JournalStore held = JournalStore.open(dir)) {
            assertThatThrownBy(() -> JournalStore.builder(dir).afterLock(() -> { }).build())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already open in this JVM");
            assertThat(held.released()).as("a refused second build leaves the first store's lock alone").isFalse();
        }
    }
}
