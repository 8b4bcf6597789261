package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tickwheel.HashedWheelTimer;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a caller is handed when something fails: the documented exception, and nothing left open. */
class DurableErrorsTest {

    @TempDir
    Path dir;

    /**
     * The SPI says {@code retryFailed} throws {@link UncheckedIOException} when the store cannot answer,
     * like every blocking call of the timer; it threw the future's {@code CompletionException} wrapper.
     */
    @Test
    void retryFailed_onAFailingDisk_throwsUncheckedIoException_andWorksOnceTheDiskDoes() {
        AtomicInteger mode = new AtomicInteger();
        JournalStore store = JournalStore.builder(dir)
                .channelFactory((p, o) -> new FaultyChannel(FileChannel.open(p, o), mode)).build();
        try (DurableTimer timer = DurableTimer.builder(store).retry(1, Duration.ofMillis(10))
                .handler("t", t -> {
                    throw new IllegalStateException("always fails (test)");
                }).build()) {
            timer.schedule("t", "k", new byte[0], Duration.ZERO);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.failed().size() == 1);
            mode.set(1); // forces fail
            assertThatThrownBy(() -> timer.retryFailed("t", "k")).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("injected");
            assertThatThrownBy(() -> store.retryFailed("t", "k", Instant.now()))
                    .isInstanceOf(UncheckedIOException.class);
            mode.set(0);
            assertThat(timer.failed()).hasSize(1);
            assertThat(store.retryFailed("t", "k", Instant.parse("2100-01-01T00:00:00Z"))).isTrue();
            assertThat(timer.failed()).isEmpty();
            assertThat(timer.find("t", "k")).isPresent();
        }
    }

    /**
     * A build that fails after the store was opened (here the wheel is stopped, so the bridge cannot
     * start) closes the store: its threads and its directory lock used to outlive the failed build,
     * and with {@code builder(JournalStore.open(dir))} nobody held a reference to close it, so the
     * journal could not be opened again in this JVM.
     */
    @Test
    void build_failingAfterTheStoreOpened_closesTheStore() {
        HashedWheelTimer stopped = HashedWheelTimer.builder().build();
        stopped.stop();
        JournalStore store = JournalStore.open(dir);
        assertThatThrownBy(() -> DurableTimer.builder(store).timer(stopped).build())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.schedule("t", "k", new byte[0], Instant.now()).join())
                .hasMessageContaining("closed");
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).build()) {
            timer.schedule("t", "k", new byte[0], Instant.parse("2100-01-01T00:00:00Z"));
            assertThat(timer.pendingTimeouts()).isEqualTo(1);
        }
    }
}
