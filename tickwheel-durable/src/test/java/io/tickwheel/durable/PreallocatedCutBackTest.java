package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cut-back after a failed batch in a preallocated segment: the failed batch's bytes are replaced
 * by zeros (the file keeps its length and preallocation), or, when zeros cannot be written, the file
 * is truncated and preallocated again by the next batch. Either way nothing of the failed batch is
 * left on disk to surface at a restart.
 */
class PreallocatedCutBackTest {

    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");
    /** A payload no other record contains: any trace of the failed batch shows as a run of it. */
    private static final byte MARK = 0x77;

    @TempDir
    Path dir;

    private final AtomicInteger mode = new AtomicInteger();

    private JournalStore store() {
        JournalStore s = JournalStore.builder(dir)
                .channelFactory((p, o) -> new FaultyChannel(FileChannel.open(p, o), mode)).build();
        s.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
        return s;
    }

    private Path segment() {
        return dir.resolve("00000000000000000001.seg");
    }

    private static byte[] marked() {
        byte[] b = new byte[300];
        Arrays.fill(b, MARK);
        return b;
    }

    private boolean traceOfFailedBatch() throws Exception {
        byte[] file = Files.readAllBytes(segment());
        int run = 0;
        for (byte b : file) {
            run = b == MARK ? run + 1 : 0;
            if (run >= 16) {
                return true;
            }
        }
        return false;
    }

    @Test
    void forceFailsOnce_failedBatchIsZeroed_fileKeepsItsPreallocation() throws Exception {
        try (JournalStore s = store()) {
            s.schedule("t", "kept", new byte[] {1}, FAR).join();
            long length = Files.size(segment());
            long preallocated = s.preallocatedBytes();
            assertThat(preallocated).isPositive();
            assertThat(s.diskBytes()).isEqualTo(length);
            mode.set(-1);
            assertThatThrownBy(() -> s.schedule("t", "lost", marked(), FAR).join())
                    .isInstanceOf(CompletionException.class).hasCauseInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("injected");
            assertThat(mode.get()).as("the fault was used").isZero();
            assertThat(traceOfFailedBatch()).as("the failed batch's bytes are zeroed").isFalse();
            assertThat(Files.size(segment())).as("same file length").isEqualTo(length);
            assertThat(s.preallocatedBytes()).isEqualTo(preallocated);
            s.schedule("t", "after", new byte[] {2}, FAR).join();
        }
        try (JournalStore s = store()) {
            assertThat(s.find("t", "kept")).isPresent();
            assertThat(s.find("t", "after")).isPresent();
            assertThat(s.find("t", "lost")).isEmpty();
            assertThat(s.pendingTimeouts()).isEqualTo(2);
        }
    }

    @Test
    void writesFail_cutBackTruncatesInstead_nextBatchPreallocatesAgain() throws Exception {
        long keptEnd;
        try (JournalStore s = store()) {
            s.schedule("t", "kept", new byte[] {1}, FAR).join();
            keptEnd = Files.size(segment()) - s.preallocatedBytes();
            mode.set(2);
            assertThatThrownBy(() -> s.schedule("t", "lost", marked(), FAR).join())
                    .hasCauseInstanceOf(UncheckedIOException.class);
            // Zeros could not be written either: the file was cut to the records instead.
            assertThat(Files.size(segment())).isEqualTo(keptEnd);
            assertThat(s.preallocatedBytes()).isZero();
            mode.set(0);
            s.schedule("t", "after", new byte[] {2}, FAR).join();
            assertThat(s.preallocatedBytes()).as("preallocated again").isPositive();
            assertThat(traceOfFailedBatch()).isFalse();
        }
        try (JournalStore s = store()) {
            assertThat(s.find("t", "lost")).isEmpty();
            assertThat(s.pendingTimeouts()).isEqualTo(2);
        }
    }

    @Test
    void killedPartWayThroughZeroingAFailedBatch_recoversAsATornTail() throws Exception {
        byte[] big = new byte[200_000]; // more than one 64 KiB zeroing write
        Arrays.fill(big, MARK);
        JournalStore s = store();
        try {
            s.schedule("t", "kept", new byte[] {1}, FAR).join();
            mode.set(-2);
            // The force fails; the cut-back's first zeroing write lands, then the disk is gone
            // (every later write, force and truncation fails): a kill -9 at that moment.
            assertThatThrownBy(() -> s.schedule("t", "lost", big, FAR).join())
                    .hasCauseInstanceOf(UncheckedIOException.class);
            assertThat(mode.get()).as("the kill point was reached").isEqualTo(3);
            assertThat(traceOfFailedBatch()).as("most of the failed batch is still on disk").isTrue();
        } finally {
            try {
                s.close();
            } catch (RuntimeException ignored) {
                // The disk is gone; what matters is what it left behind.
            }
        }
        mode.set(0);
        try (JournalStore again = store()) {
            // Zeroing from the batch's end back leaves its head followed by zeros: a torn tail.
            // Front to back left zeros followed by the rest of it, which recovery refused.
            assertThat(again.find("t", "kept")).isPresent();
            assertThat(again.find("t", "lost")).isEmpty();
            assertThat(again.pendingTimeouts()).isEqualTo(1);
            again.schedule("t", "after", new byte[] {2}, FAR).join();
        }
    }

    @Test
    void writesAndTruncationFail_theRetryStillZeroesTheWholeFailedBatch() throws Exception {
        try (JournalStore s = store()) {
            s.schedule("t", "kept", new byte[] {1}, FAR).join();
            mode.set(-4);
            // The batch is written, its force fails, and then neither zeros nor a truncation can land:
            // the cut-back is left to retry before the next batch, and must still know where the
            // failed bytes end.
            assertThatThrownBy(() -> s.schedule("t", "lost", marked(), FAR).join())
                    .hasCauseInstanceOf(UncheckedIOException.class);
            assertThat(mode.get()).as("the fault was used").isEqualTo(3);
            assertThat(traceOfFailedBatch()).as("the failed batch is on disk").isTrue();
            mode.set(0);
            s.schedule("t", "after", new byte[] {2}, FAR).join();
            assertThat(traceOfFailedBatch()).as("no byte of the failed batch is left after the retry").isFalse();
        }
        try (JournalStore s = store()) {
            assertThat(s.find("t", "lost")).isEmpty();
            assertThat(s.find("t", "after")).isPresent();
            assertThat(s.pendingTimeouts()).isEqualTo(2);
        }
    }
}
