package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction keeps disk use near the live set, and keeps every pending and failed timeout exact. */
class CompactionTest {

    @TempDir
    Path dir;

    private JournalStore store() {
        return JournalStore.builder(dir).fsync(false).segments(8 << 10, 32 << 10).build();
    }

    @Test
    void churn_diskFollowsLiveSet_andEverythingSurvivesReopen() throws Exception {
        Instant far = Instant.parse("2100-01-01T00:00:00Z");
        try (JournalStore s = store()) {
            s.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            StoredTimeout failing = s.schedule("t", "failed-one", new byte[] {7}, Instant.EPOCH).join();
            assertThat(s.claim(failing)).isTrue();
            s.fail(failing, "gave up").join();
            for (int round = 0; round < 40; round++) {
                for (int k = 0; k < 200; k++) {
                    s.schedule("t", "k" + k, new byte[] {(byte) round, (byte) k}, far.plusSeconds(round)).join();
                }
                for (int k = 100; k < 200; k++) {
                    s.cancel("t", "k" + k).join();
                }
            }
            assertThat(s.pendingTimeouts()).isEqualTo(100);
            await().atMost(Duration.ofSeconds(20)).until(() -> s.diskBytes() < 64 << 10);
            assertThat(segmentBytes()).isLessThan(96 << 10);
        }
        try (JournalStore s = store()) {
            s.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            assertThat(s.pendingTimeouts()).isEqualTo(100);
            for (int k = 0; k < 100; k++) {
                StoredTimeout t = s.find("t", "k" + k).orElseThrow();
                assertThat(t.payload()).containsExactly(39, k);
                assertThat(t.deadline()).isEqualTo(far.plusSeconds(39));
            }
            assertThat(s.find("t", "k150")).isEmpty();
            assertThat(s.failed()).extracting(StoredTimeout::key).containsExactly("failed-one");
            assertThat(s.failed().get(0).payload()).containsExactly(7);
        }
    }

    private long segmentBytes() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".seg")).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
