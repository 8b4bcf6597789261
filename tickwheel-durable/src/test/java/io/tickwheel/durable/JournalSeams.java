package io.tickwheel.durable;

import java.nio.file.Path;

/**
 * The package-private seams of {@link JournalStore}, opened to tests in other packages (the crash
 * test's child process lives in {@code io.tickwheel.durable.crash}). Test code only.
 *
 * <p>Threading: stateless; each method is as thread-safe as the store method it calls.
 */
public final class JournalSeams {

    private JournalSeams() {
    }

    /**
     * A store whose segments roll at {@code segmentBytes} and that compacts once the journal passes
     * {@code compactMinBytes} (and twice what it needs), so a short run rolls and compacts many times.
     *
     * @param dir             the journal directory
     * @param segmentBytes    roll at this size
     * @param compactMinBytes compact above this size
     * @return the store (fsync on, as by default)
     */
    public static JournalStore smallSegments(final Path dir, final long segmentBytes, final long compactMinBytes) {
        return JournalStore.builder(dir).segments(segmentBytes, compactMinBytes).build();
    }

    /**
     * Segments rolled because full, compactions started, compactions finished, since the store opened.
     *
     * @param store the store
     * @return the three counts
     */
    public static long[] maintenanceCounts(final JournalStore store) {
        return store.maintenanceCounts();
    }
}
