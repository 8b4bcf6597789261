package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A close that stops waiting for a compaction that takes longer (a disk that hangs under it): the
 * directory stays locked until the compactor is done, so no new store opens it while the old
 * compactor still renames and deletes segments, and every acknowledged timeout survives.
 */
class CloseDuringCompactionTest {

    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void closeGivesUpOnAHungCompaction_theDirectoryStaysLockedUntilItEndsAndNothingIsLost() throws Exception {
        HangingChannel.Hang hang = new HangingChannel.Hang("tickwheel-journal-compactor", false);
        hang.armed.set(true);
        JournalStore store = JournalStore.builder(dir)
                .channelFactory((p, o) -> new HangingChannel(FileChannel.open(p, o), hang))
                .segments(16 << 10, 32 << 10).closeWait(Duration.ofMillis(200)).build();
        store.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
        for (int round = 0; round < 40 && hang.entered.getCount() > 0; round++) {
            for (int k = 0; k < 200; k++) {
                store.schedule("t", "k" + k, new byte[] {(byte) round, (byte) k}, FAR.plusSeconds(round)).join();
            }
            for (int k = 100; k < 200; k++) {
                store.cancel("t", "k" + k).join();
            }
        }
        assertThat(hang.entered.await(20, TimeUnit.SECONDS)).as("a compaction started and hung").isTrue();
        int lastRound = store.find("t", "k0").orElseThrow().payload()[0];

        long start = System.nanoTime();
        store.close();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("close returns").isLessThan(Duration.ofSeconds(10));
        assertThatThrownBy(() -> JournalStore.open(dir)).as("the directory stays locked while compaction runs")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already open in this JVM");

        hang.release.countDown();
        hang.hung.join(20_000);
        assertThat(hang.hung.isAlive()).as("the compactor ends").isFalse();
        await().atMost(Duration.ofSeconds(10)).until(store::released);

        try (JournalStore again = JournalStore.open(dir)) {
            again.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            assertThat(again.pendingTimeouts()).isEqualTo(100);
            for (int k = 0; k < 100; k++) {
                StoredTimeout t = again.find("t", "k" + k).orElseThrow();
                assertThat(t.payload()).containsExactly(lastRound, k);
            }
            assertThat(again.find("t", "k150")).isEmpty();
        }
    }
}
