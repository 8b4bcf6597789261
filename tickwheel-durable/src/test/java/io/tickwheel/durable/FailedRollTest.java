package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.durable.internal.ChannelFactory;
import io.tickwheel.durable.internal.RecordCodec;
import io.tickwheel.durable.internal.RecordView;
import io.tickwheel.durable.internal.SegmentFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A roll whose new segment cannot be preallocated or forced (a full or failing disk): the new file is
 * deleted, the journal goes on appending to the segment it had, nothing acknowledged is lost, and the
 * roll succeeds once the disk works again. A new segment left behind would sit after the active one,
 * so a torn tail in the active one would no longer be the journal's last and recovery would refuse it.
 */
class FailedRollTest {

    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");
    private static final String FIRST = "00000000000000000001.seg";

    @TempDir
    Path dir;

    private long segmentFiles() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".seg")).count();
        }
    }

    @Test
    void aRollThatCannotForceItsNewSegment_deletesIt_andTheJournalGoesOnInTheOldOne() throws Exception {
        // Mode 2: writes and forces fail, on segment files other than the first only (the directory's
        // own force, and the first segment, work).
        AtomicInteger newSegments = new AtomicInteger(2);
        JournalStore s = JournalStore.builder(dir).segments(8192, Long.MAX_VALUE)
                .channelFactory((p, o) -> {
                    String name = p.getFileName().toString();
                    FileChannel channel = FileChannel.open(p, o);
                    return name.endsWith(".seg") && !name.equals(FIRST) ? new FaultyChannel(channel, newSegments)
                            : channel;
                }).build();
        int acknowledged = 0;
        try {
            s.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            byte[] payload = new byte[200];
            for (int i = 0; i < 100; i++) {
                s.schedule("t", "before-" + i, payload, FAR).join();
                acknowledged++;
            }
            assertThat(Files.size(dir.resolve(FIRST))).as("the first segment is past its roll size")
                    .isGreaterThan(8192);
            assertThat(JournalSeams.maintenanceCounts(s)[0]).as("no roll succeeded").isZero();
            assertThat(segmentFiles()).as("each failed roll's new segment was deleted").isEqualTo(1);

            newSegments.set(0);
            for (int i = 0; i < 100; i++) {
                s.schedule("t", "after-" + i, payload, FAR).join();
                acknowledged++;
            }
            assertThat(JournalSeams.maintenanceCounts(s)[0]).as("rolls once the disk works").isPositive();
            assertThat(segmentFiles()).isGreaterThan(1);
            assertThat(s.pendingTimeouts()).isEqualTo(acknowledged);
        } finally {
            s.close();
        }
        try (JournalStore again = JournalStore.builder(dir).build()) {
            again.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            assertThat(again.pendingTimeouts()).as("every acknowledged schedule recovered").isEqualTo(200);
        }
    }

    /**
     * Mode 1: the new segment's force fails (it is left with its header and zeros); mode 2: its writes
     * fail too (it is left empty). Either way its delete fails as well, so it stays behind the segment
     * the journal goes on appending to, and a kill then tears that one's tail.
     */
    @ParameterizedTest(name = "new segments fail in mode {0}")
    @ValueSource(ints = {1, 2})
    void aFailedRollWhoseDeleteFailsToo_thenATornTail_opensWithEveryAcknowledgedTimeout(final int mode)
            throws Exception {
        AtomicInteger newSegments = new AtomicInteger(mode);
        ChannelFactory channels = new ChannelFactory() {
            @Override
            public FileChannel open(final Path p, final OpenOption... o) throws IOException {
                FileChannel channel = FileChannel.open(p, o);
                return p.getFileName().toString().equals(FIRST) ? channel : new FaultyChannel(channel, newSegments);
            }

            @Override
            public void delete(final Path p) throws IOException {
                throw new IOException("injected: cannot delete " + p);
            }
        };
        JournalStore s = JournalStore.builder(dir).segments(8192, Long.MAX_VALUE).channelFactory(channels).build();
        try {
            s.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            for (int i = 0; i < 100; i++) {
                s.schedule("t", "k" + i, new byte[200], FAR).join();
            }
            assertThat(segmentFiles()).as("the failed roll's new segment is still there").isEqualTo(2);
        } finally {
            s.close();
        }
        tearAfterLastRecord(dir.resolve(FIRST));
        try (JournalStore again = JournalStore.builder(dir).build()) {
            again.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            assertThat(again.pendingTimeouts()).as("every acknowledged schedule recovered").isEqualTo(100);
            again.schedule("t", "after", new byte[200], FAR).join();
        }
        // The torn tail was cut for good, not just skipped: the segment is no longer the last one written.
        try (JournalStore third = JournalStore.builder(dir).build()) {
            third.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            assertThat(third.pendingTimeouts()).as("reopened again").isEqualTo(101);
        }
    }

    /** Writes half of the segment's first record after its last one: a write that a kill tore. */
    private static void tearAfterLastRecord(final Path segment) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(segment));
        RecordView view = new RecordView();
        assertThat(RecordCodec.read(bytes, SegmentFiles.FILE_HEADER, view)).isEqualTo(RecordCodec.Status.OK);
        int half = view.length() / 2;
        int end = SegmentFiles.FILE_HEADER;
        while (RecordCodec.read(bytes, end, view) == RecordCodec.Status.OK) {
            end += view.length();
        }
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ch.write(bytes.duplicate().position(SegmentFiles.FILE_HEADER).limit(SegmentFiles.FILE_HEADER + half), end);
        }
    }
}
