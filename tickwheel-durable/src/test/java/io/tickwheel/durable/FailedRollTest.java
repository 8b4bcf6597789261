package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
