package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tickwheel.durable.internal.ChannelFactory;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction whose delete of an old segment hangs (a failing disk): the writer and lookups go on
 * meanwhile, since the compactor deletes without the store's lock, and once the delete returns the
 * journal holds exactly what was acknowledged.
 */
class HungDeleteTest {

    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");

    @TempDir
    Path dir;

    /** Hangs the compactor's first delete until released. */
    private static final class HangingDelete implements ChannelFactory {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicBoolean hungOnce = new AtomicBoolean();

        @Override
        public FileChannel open(final Path path, final OpenOption... options) throws IOException {
            return FileChannel.open(path, options);
        }

        @Override
        public void delete(final Path path) throws IOException {
            if (Thread.currentThread().getName().startsWith("tickwheel-journal-compactor")
                    && hungOnce.compareAndSet(false, true)) {
                entered.countDown();
                try {
                    if (!release.await(60, TimeUnit.SECONDS)) {
                        throw new IOException("test: never released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("test: interrupted", e);
                }
            }
            ChannelFactory.super.delete(path);
        }
    }

    @Test
    void aDeleteThatHangs_stallsNeitherTheWriterNorLookups() throws Exception {
        HangingDelete disk = new HangingDelete();
        int lastRound;
        JournalStore store = JournalStore.builder(dir).channelFactory(disk).segments(16 << 10, 32 << 10).build();
        try (store) {
            store.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            int round = 0;
            for (; round < 40 && disk.entered.getCount() > 0; round++) {
                for (int k = 0; k < 200; k++) {
                    store.schedule("t", "k" + k, new byte[] {(byte) round, (byte) k}, FAR.plusSeconds(round))
                            .get(5, TimeUnit.SECONDS);
                }
                for (int k = 100; k < 200; k++) {
                    store.cancel("t", "k" + k).get(5, TimeUnit.SECONDS);
                }
            }
            assertThat(disk.entered.await(20, TimeUnit.SECONDS)).as("a compaction reached its delete").isTrue();

            // While the delete hangs: schedules, cancels and lookups complete (before the fix each
            // waited for the store's lock, which the compactor held through its deletes). A lookup
            // first, of records the compaction may have moved.
            for (int k = 0; k < 100; k++) {
                assertThat(store.find("t", "k" + k).orElseThrow().payload()).containsExactly(round - 1, k);
            }
            lastRound = round;
            for (int k = 0; k < 200; k++) {
                store.schedule("t", "k" + k, new byte[] {(byte) lastRound, (byte) k}, FAR.plusSeconds(lastRound))
                        .get(5, TimeUnit.SECONDS);
            }
            for (int k = 100; k < 200; k++) {
                store.cancel("t", "k" + k).get(5, TimeUnit.SECONDS);
            }
            assertThat(store.find("t", "k7").orElseThrow().payload()).containsExactly(lastRound, 7);
            assertThat(store.pendingTimeouts()).isEqualTo(100);
            assertThat(disk.entered.getCount()).isZero();

            disk.release.countDown();
            await().atMost(Duration.ofSeconds(20)).until(() -> store.maintenanceCounts()[2] > 0);
        }
        // The compactor lets go of the directory just after it counts itself finished.
        await().atMost(Duration.ofSeconds(20)).until(store::released);
        try (JournalStore again = JournalStore.open(dir)) {
            again.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            assertThat(again.pendingTimeouts()).isEqualTo(100);
            for (int k = 0; k < 100; k++) {
                assertThat(again.find("t", "k" + k).orElseThrow().payload()).containsExactly(lastRound, k);
            }
            for (int k = 100; k < 200; k++) {
                assertThat(again.find("t", "k" + k)).isEmpty();
            }
        }
    }
}
