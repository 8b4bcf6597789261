package io.tickwheel.durable.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.durable.JournalStore;
import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Torn and corrupt journals: every truncation of the tail, every flipped byte in the middle. */
class RecoveryTest {

    private static final int RECORDS = 24;
    private static final Instant DEADLINE = Instant.parse("2100-01-01T00:00:00Z");

    @TempDir
    Path dir;

    private Path segment;
    private byte[] original;
    private final List<Integer> starts = new ArrayList<>();

    @BeforeEach
    void writeSmallJournal() throws Exception {
        try (JournalStore store = JournalStore.builder(dir).fsync(false).build()) {
            store.open(new NoSink(), Clock.systemUTC());
            for (int i = 0; i < RECORDS; i++) {
                store.schedule("t", "k" + i, new byte[] {(byte) i, 2, 3}, DEADLINE.plusSeconds(i)).join();
            }
        }
        try (var files = Files.list(dir)) {
            segment = files.filter(p -> p.toString().endsWith(".seg")).findFirst().orElseThrow();
        }
        original = Files.readAllBytes(segment);
        ByteBuffer buf = ByteBuffer.wrap(original);
        RecordView view = new RecordView();
        for (int at = SegmentFiles.FILE_HEADER; at < original.length; at += view.length()) {
            assertThat(RecordCodec.read(buf, at, view)).isEqualTo(RecordCodec.Status.OK);
            starts.add(at);
        }
        assertThat(starts).hasSize(RECORDS);
    }

    private JournalCore recover() {
        JournalCore core = new JournalCore();
        try (SegmentFiles files = new SegmentFiles(dir, ChannelFactory.DEFAULT)) {
            Recovery.run(files, core);
        }
        return core;
    }

    @Test
    void truncate_atEveryOffset_recoversExactlyTheCompleteRecords() throws Exception {
        for (int cut = 0; cut <= original.length; cut++) {
            Files.write(segment, java.util.Arrays.copyOf(original, cut));
            int complete = 0;
            for (int i = 0; i < RECORDS; i++) {
                int end = i + 1 < RECORDS ? starts.get(i + 1) : original.length;
                complete += end <= cut ? 1 : 0;
            }
            JournalCore core = recover();
            assertThat(core.live.size()).as("cut at %d", cut).isEqualTo(complete);
            long expectedSize = complete == 0 ? SegmentFiles.FILE_HEADER
                    : complete < RECORDS ? starts.get(complete) : original.length;
            assertThat(Files.size(segment)).as("torn tail cut at %d", cut).isEqualTo(expectedSize);
        }
        // After the last cut (the whole file) the store opens with every record, readable.
        try (JournalStore store = JournalStore.open(dir)) {
            store.open(new NoSink(), Clock.systemUTC());
            StoredTimeout t = store.find("t", "k" + (RECORDS - 1)).orElseThrow();
            assertThat(t.deadline()).isEqualTo(DEADLINE.plusSeconds(RECORDS - 1));
            assertThat(t.payload()).containsExactly(RECORDS - 1, 2, 3);
        }
    }

    @Test
    void truncatedThenAppended_newRecordsFollowTheCut() throws Exception {
        Files.write(segment, java.util.Arrays.copyOf(original, starts.get(5) + 7));
        try (JournalStore store = JournalStore.open(dir)) {
            store.open(new NoSink(), Clock.systemUTC());
            assertThat(store.pendingTimeouts()).isEqualTo(5);
            store.schedule("t", "after", new byte[0], DEADLINE).join();
        }
        assertThat(recover().live.size()).isEqualTo(6);
    }

    @Test
    void flipByte_beforeTheLastRecord_refusesNamingFileAndOffset() throws Exception {
        int lastStart = starts.get(RECORDS - 1);
        for (int at = SegmentFiles.FILE_HEADER; at < lastStart; at++) {
            byte[] bad = original.clone();
            bad[at] ^= (byte) 0x5A;
            Files.write(segment, bad);
            int record = 0;
            while (record + 1 < RECORDS && starts.get(record + 1) <= at) {
                record++;
            }
            int expectedOffset = starts.get(record);
            assertThatThrownBy(this::recover).as("flip at %d", at).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("journal corrupt")
                    .hasMessageContaining(segment.toString())
                    .hasMessageContaining("at offset " + expectedOffset);
        }
    }

    @Test
    void flipByte_inTheFileHeader_refuses() throws Exception {
        byte[] bad = original.clone();
        bad[1] ^= 1;
        Files.write(segment, bad);
        assertThatThrownBy(this::recover).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("bad magic").hasMessageContaining(segment.toString());
    }

    @Test
    void unknownFormatVersion_refusedWithClearError() throws Exception {
        byte[] bad = original.clone();
        bad[7] = 9;
        Files.write(segment, bad);
        assertThatThrownBy(() -> {
            try (JournalStore store = JournalStore.open(dir)) {
                store.open(new NoSink(), Clock.systemUTC());
            }
        }).isInstanceOf(UncheckedIOException.class).hasMessageContaining("format version 9 is unknown")
                .hasMessageContaining("reads format 1");
        // The failed open released the lock: a corrected journal opens.
        Files.write(segment, original);
        assertThat(recover().live.size()).isEqualTo(RECORDS);
    }

    @Test
    void secondOpen_sameDirectory_refused() throws IOException {
        try (JournalStore first = JournalStore.open(dir)) {
            assertThatThrownBy(() -> JournalStore.open(dir)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already open in this JVM");
            assertThat(first.maxPayloadBytes()).isEqualTo(1 << 20);
        }
        JournalStore.open(dir).close();
    }

    /** A sink that ignores deliveries: these tests look at the store only. */
    static final class NoSink implements TimerStore.Sink {
        @Override
        public void deliver(final StoredTimeout timeout) {
            // not firing
        }

        @Override
        public void revoke(final String type, final String key, final long version) {
            // nothing held
        }
    }
}
