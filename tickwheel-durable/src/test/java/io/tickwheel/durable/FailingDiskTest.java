package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failing disk under the journal (IOException injected from the file channel): the caller gets
 * the error, nothing acknowledged is lost, nothing failed surfaces later, and the timer works again
 * once the disk does.
 */
class FailingDiskTest {

    @TempDir
    Path dir;

    private final AtomicInteger mode = new AtomicInteger();
    private final List<String> fired = new CopyOnWriteArrayList<>();

    private JournalStore store() {
        return JournalStore.builder(dir).channelFactory((p, o) -> new FaultyChannel(FileChannel.open(p, o), mode))
                .build();
    }

    /** 1: force fails; 2: writes fail; 3: writes, forces and the cut-back all fail. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void failingDisk_callerGetsErrorNothingAcknowledgedLost_worksAgainAfter(final int failure) throws Exception {
        Instant far = Instant.now().plusSeconds(3600);
        try (DurableTimer timer = DurableTimer.builder(store()).handler("t", t -> fired.add(t.key())).build()) {
            timer.schedule("t", "kept", new byte[] {1}, far);
            timer.schedule("t", "fires", new byte[0], Duration.ofMillis(1500));
            mode.set(failure);
            assertThatThrownBy(() -> timer.schedule("t", "lost", new byte[0], far))
                    .isInstanceOf(UncheckedIOException.class).hasMessageContaining("injected");
            CompletableFuture<DurableTimeout> async = timer.scheduleAsync("t", "lost2", new byte[0], far);
            assertThatThrownBy(async::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(UncheckedIOException.class);
            assertThatThrownBy(() -> timer.cancel("t", "kept")).isInstanceOf(UncheckedIOException.class);
            assertThat(timer.find("t", "lost")).isEmpty();
            assertThat(timer.find("t", "kept")).isPresent();
            mode.set(0);
            timer.schedule("t", "after", new byte[0], far);
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.contains("fires"));
            assertThat(timer.pendingTimeouts()).isEqualTo(2);
        }
        try (DurableTimer timer = DurableTimer.builder(store()).build()) {
            assertThat(timer.find("t", "kept")).isPresent();
            assertThat(timer.find("t", "after")).isPresent();
            assertThat(timer.find("t", "lost")).isEmpty();
            assertThat(timer.find("t", "lost2")).isEmpty();
            assertThat(timer.pendingTimeouts()).isEqualTo(2);
        }
    }
}
