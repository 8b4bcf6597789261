package io.tickwheel.durable.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Segments preallocated with zeros (format 2): the end of the records is the first all-zero header;
 * a torn record followed by zeros is cut at every byte offset, a bad record followed by anything
 * non-zero is refused, the preallocation grows in chunks across batches, a roll trims the closed
 * segment, a crash while a segment is created or rolled recovers, and a segment of the older
 * format (growing, no zero tail) is still read and then left alone.
 */
class PreallocatedSegmentTest {

    private static final int RECORDS = 8;
    private static final long CHUNK = 16 << 10;
    private static final Instant DEADLINE = Instant.parse("2100-01-01T00:00:00Z");

    @TempDir
    Path dir;

    /** Writes {@code n} schedules, one batch each, with fsync on; returns record starts. */
    private List<Integer> write(final int n, final long chunk) {
        return write("k", n, chunk);
    }

    private List<Integer> write(final String prefix, final int n, final long chunk) {
        List<Integer> starts = new ArrayList<>();
        JournalCore core = new JournalCore();
        try (SegmentFiles files = new SegmentFiles(dir, ChannelFactory.DEFAULT, chunk)) {
            Recovery.run(files, core);
            GroupCommitWriter w = new GroupCommitWriter(core, files, true, new IdleHost(), "test-journal-writer",
                    () -> { });
            w.start(Thread::start);
            try {
                for (int i = 0; i < n; i++) {
                    starts.add((int) files.activeSize());
                    JournalOp op = JournalOp.schedule("t", prefix + i, new byte[] {(byte) i, 2, 3}, DEADLINE);
                    w.submit(op);
                    op.future().join();
                }
            } finally {
                close(w);
            }
        }
        return starts;
    }

    private JournalCore recover(final long chunk) {
        JournalCore core = new JournalCore();
        try (SegmentFiles files = new SegmentFiles(dir, ChannelFactory.DEFAULT, chunk)) {
            Recovery.run(files, core);
        }
        return core;
    }

    private Path segment(final long n) {
        return dir.resolve(String.format(java.util.Locale.ROOT, "%020d.seg", n));
    }

    @Test
    void tornRecordThenZeros_atEveryOffset_recoversExactlyTheWholeRecords_andPreallocatesAgain() throws Exception {
        List<Integer> starts = write(RECORDS, CHUNK);
        byte[] original = Files.readAllBytes(segment(1));
        int end = starts.get(RECORDS - 1) + starts.get(1) - starts.get(0);
        assertThat(original.length).as("preallocated past the records").isGreaterThanOrEqualTo(end + (int) CHUNK / 2);
        assertThat(RecordCodec.allZero(ByteBuffer.wrap(original), end)).as("zeros after the records").isTrue();
        for (int cut = SegmentFiles.FILE_HEADER; cut <= end; cut++) {
            byte[] torn = original.clone();
            Arrays.fill(torn, cut, end, (byte) 0);
            Files.write(segment(1), torn);
            int complete = 0;
            while (complete < RECORDS && (complete + 1 < RECORDS ? starts.get(complete + 1) : end) <= cut) {
                complete++;
            }
            assertThat(recover(CHUNK).live.size()).as("cut at %d", cut).isEqualTo(complete);
            int valid = complete < RECORDS ? starts.get(complete) : end;
            byte[] after = Files.readAllBytes(segment(1));
            assertThat(after.length).as("preallocated again after a cut at %d", cut)
                    .isGreaterThanOrEqualTo(valid + (int) CHUNK);
            assertThat(Arrays.copyOf(after, valid)).isEqualTo(Arrays.copyOf(original, valid));
            assertThat(RecordCodec.allZero(ByteBuffer.wrap(after), valid)).as("torn bytes gone, cut at %d", cut)
                    .isTrue();
        }
        // Appends after the last (complete) recovery land right after the records and survive.
        write("n", 2, CHUNK);
        assertThat(recover(CHUNK).live.size()).isEqualTo(RECORDS + 2);
    }

    @Test
    void badRecordFollowedByRecords_inAPreallocatedSegment_isRefusedNamingFileAndOffset() throws Exception {
        List<Integer> starts = write(RECORDS, CHUNK);
        byte[] original = Files.readAllBytes(segment(1));
        int lastStart = starts.get(RECORDS - 1);
        for (int at = SegmentFiles.FILE_HEADER; at < lastStart; at++) {
            byte[] bad = original.clone();
            bad[at] ^= (byte) 0x5A;
            Files.write(segment(1), bad);
            int record = 0;
            while (record + 1 < RECORDS && starts.get(record + 1) <= at) {
                record++;
            }
            assertThatThrownBy(() -> recover(CHUNK)).as("flip at %d", at).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("journal corrupt").hasMessageContaining(segment(1).toString())
                    .hasMessageContaining("at offset " + starts.get(record) + ":");
        }
        // A flip in the last record, zeros after it: indistinguishable from a torn write, cut as one.
        byte[] lastFlipped = original.clone();
        lastFlipped[lastStart + 12] ^= (byte) 0x5A;
        Files.write(segment(1), lastFlipped);
        assertThat(recover(CHUNK).live.size()).isEqualTo(RECORDS - 1);
    }

    @Test
    void strayByteInTheZeroTail_isRefusedAtTheEndOfTheRecords() throws Exception {
        List<Integer> starts = write(RECORDS, CHUNK);
        int end = starts.get(RECORDS - 1) + starts.get(1) - starts.get(0);
        byte[] bad = Files.readAllBytes(segment(1));
        bad[end + 1000] = 1;
        Files.write(segment(1), bad);
        assertThatThrownBy(() -> recover(CHUNK)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(segment(1).toString()).hasMessageContaining("at offset " + end + ":");
    }

    @Test
    void preallocation_extendsInChunksAcrossManyBatches_andRollTrimsTheClosedSegment() throws Exception {
        long chunk = 4096;
        JournalCore core = new JournalCore();
        Set<Long> lengths = new HashSet<>();
        long records;
        try (SegmentFiles files = new SegmentFiles(dir, ChannelFactory.DEFAULT, chunk)) {
            Recovery.run(files, core);
            GroupCommitWriter w = new GroupCommitWriter(core, files, true, new IdleHost(), "test-journal-writer",
                    () -> { });
            w.start(Thread::start);
            try {
                for (int i = 0; i < 600; i++) {
                    JournalOp op = JournalOp.schedule("t", "key-" + i, new byte[20], DEADLINE);
                    w.submit(op);
                    op.future().join();
                    long length = Files.size(segment(1));
                    long size = files.activeSize();
                    assertThat(length).as("after op %d", i).isEqualTo(files.activeFileBytes())
                            .isGreaterThanOrEqualTo(size).isLessThanOrEqualTo(size + chunk + ActiveSegment.PAGE);
                    assertThat(length % ActiveSegment.PAGE).isZero();
                    lengths.add(length);
                }
                records = files.activeSize();
                assertThat(RecordCodec.allZero(ByteBuffer.wrap(Files.readAllBytes(segment(1))), (int) records))
                        .isTrue();
                files.openActive(2, 0);
                assertThat(Files.size(segment(1))).as("the closed segment holds its records only").isEqualTo(records);
                // The header and a chunk, rounded up to whole pages.
                assertThat(Files.size(segment(2))).isEqualTo(2 * chunk);
                JournalOp op = JournalOp.schedule("t", "in-2", new byte[0], DEADLINE);
                w.submit(op);
                op.future().join();
            } finally {
                close(w);
            }
        }
        assertThat(lengths).as("distinct file lengths: one per extension").hasSizeGreaterThanOrEqualTo(6);
        assertThat(recover(chunk).live.size()).isEqualTo(601);
    }

    @Test
    void crashWhileCreatingOrRolling_zeroFilledOrHeaderlessSegment_recovers() throws Exception {
        write(RECORDS, CHUNK);
        // The next segment created, its size committed, its header not (a power loss): zeros only.
        Files.write(segment(2), new byte[8192]);
        assertThat(recover(CHUNK).live.size()).isEqualTo(RECORDS);
        assertThat(ByteBuffer.wrap(Files.readAllBytes(segment(2))).getInt(0)).isEqualTo(SegmentFiles.MAGIC);
        // Killed before the closed segment's zeros were trimmed: a zero tail in a segment that is not the last.
        byte[] first = Files.readAllBytes(segment(1));
        Files.write(segment(1), Arrays.copyOf(first, first.length + 20_000));
        assertThat(recover(CHUNK).live.size()).isEqualTo(RECORDS);
        // Half a header, then zeros.
        byte[] half = new byte[4096];
        System.arraycopy(SegmentFiles.header(2).array(), 0, half, 0, 6);
        Files.write(segment(2), half);
        assertThat(recover(CHUNK).live.size()).isEqualTo(RECORDS);
        // A torn record in a segment that a segment with records follows is still corruption.
        List<Integer> starts = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(first);
        RecordView v = new RecordView();
        for (int at = SegmentFiles.FILE_HEADER; RecordCodec.read(b, at, v) == RecordCodec.Status.OK; at += v.length()) {
            starts.add(at);
        }
        byte[] torn = Arrays.copyOf(first, first.length);
        Arrays.fill(torn, starts.get(RECORDS - 1) + 10, torn.length, (byte) 0);
        Files.write(segment(1), torn);
        byte[] second = Arrays.copyOf(SegmentFiles.header(2).array(), starts.get(1));
        System.arraycopy(first, starts.get(0), second, SegmentFiles.FILE_HEADER, starts.get(1) - starts.get(0));
        Files.write(segment(2), second);
        assertThatThrownBy(() -> recover(CHUNK)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(segment(1).toString())
                .hasMessageContaining("at offset " + starts.get(RECORDS - 1) + ":");
        // Followed only by segments without records (a failed roll's, whose delete failed), it is the
        // journal's end: cut there, and kept closed.
        Files.write(segment(2), half);
        assertThat(recover(CHUNK).live.size()).isEqualTo(RECORDS - 1);
        assertThat(Files.size(segment(1))).isEqualTo((long) starts.get(RECORDS - 1));
        // Two such segments, the first empty: still read as holding nothing once records follow it.
        Files.write(segment(1), torn);
        Files.write(segment(2), new byte[0]);
        Files.write(segment(3), half);
        write("n", 1, CHUNK);
        assertThat(recover(CHUNK).live.size()).isEqualTo(RECORDS);
    }

    @Test
    void olderFormatSegment_isReadToItsEnd_cutIfTorn_andANewSegmentTakesTheAppends() throws Exception {
        List<Integer> starts = write(RECORDS, 0);
        byte[] grown = Files.readAllBytes(segment(1));
        assertThat(grown.length).as("no preallocation: the file ends with its records").isEqualTo(
                starts.get(RECORDS - 1) + starts.get(1) - starts.get(0));
        ByteBuffer.wrap(grown).putInt(4, SegmentFiles.FORMAT_GROWING);
        // Torn in its last record, as a crash of the older release could leave it.
        Files.write(segment(1), Arrays.copyOf(grown, grown.length - 5));
        assertThat(recover(CHUNK).live.size()).isEqualTo(RECORDS - 1);
        assertThat(Files.size(segment(1))).isEqualTo((long) starts.get(RECORDS - 1));
        assertThat(ByteBuffer.wrap(Files.readAllBytes(segment(1))).getInt(4)).isEqualTo(SegmentFiles.FORMAT_GROWING);
        ByteBuffer second = ByteBuffer.wrap(Files.readAllBytes(segment(2)));
        assertThat(second.getInt(4)).isEqualTo(SegmentFiles.FORMAT);
        assertThat(second.limit()).isGreaterThanOrEqualTo(SegmentFiles.FILE_HEADER + (int) CHUNK);
        write("n", 1, CHUNK);
        assertThat(recover(CHUNK).live.size()).isEqualTo(RECORDS);
        assertThat(Files.size(segment(1))).as("the older segment is left as it was")
                .isEqualTo((long) starts.get(RECORDS - 1));
    }

    private static void close(final GroupCommitWriter w) {
        w.close(10_000);
    }
}
