package io.tickwheel.durable.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;

/**
 * Recovery: reads every segment in order, verifies each record (length check and CRC32C), replays
 * it into the {@link JournalCore}, and cuts a torn tail off the last segment (what a crash in the
 * middle of a write leaves). A record that is whole but wrong, or a torn record anywhere but at the
 * end of the last segment, is corruption: recovery refuses to start, naming the file and offset,
 * and never skips it (skipping could resurrect a cancelled timeout or lose a pending one).
 *
 * <p>Threading: not thread-safe; runs once, on the thread that opens the store, before any other
 * thread touches the state.
 */
public final class Recovery {

    private static final System.Logger LOG = System.getLogger(Recovery.class.getName());

    /** Sizes of the segments that are not appended to, by number. */
    final TreeMap<Long, Long> closedSizes = new TreeMap<>();
    /** The segment to append to. */
    long activeNumber;
    /** Its valid size (0: create it). */
    long activeSize;
    /** Records replayed. */
    long records;
    /** Bytes cut off a torn tail. */
    long tornBytes;

    private Recovery() {
    }

    /**
     * Recovers a journal directory into {@code core} and opens its active segment for appending.
     *
     * @param files the directory
     * @param core  the empty state to fill
     * @return what was found
     * @throws UncheckedIOException if a file cannot be read or is corrupt (the message names the file and
     *                              offset)
     */
    public static Recovery run(final SegmentFiles files, final JournalCore core) {
        Recovery r = new Recovery();
        try {
            List<Long> numbers = files.list();
            RecordView view = new RecordView();
            for (int i = 0; i < numbers.size(); i++) {
                long n = numbers.get(i);
                boolean last = i == numbers.size() - 1;
                long valid = r.readSegment(files, core, n, last, view);
                if (last) {
                    r.activeNumber = n;
                    r.activeSize = valid;
                } else {
                    r.closedSizes.put(n, valid);
                }
            }
            if (numbers.isEmpty()) {
                r.activeNumber = 1;
            }
            core.live.trim();
            files.openActive(r.activeNumber, r.activeSize);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot recover journal: " + e.getMessage(), e);
        }
        return r;
    }

    private long readSegment(final SegmentFiles files, final JournalCore core, final long number,
            final boolean last, final RecordView view) throws IOException {
        Path path = files.path(number);
        ByteBuffer buf = files.readAll(number);
        if (buf.limit() < SegmentFiles.FILE_HEADER) {
            if (last && isZeroOrPrefixOfHeader(buf, number)) {
                return 0;
            }
            throw corrupt(path, 0, "segment header is incomplete");
        }
        if (buf.getInt(0) != SegmentFiles.MAGIC) {
            throw corrupt(path, 0, "not a tickwheel journal segment (bad magic)");
        }
        int format = buf.getInt(4);
        if (format != SegmentFiles.FORMAT) {
            String msg = path + ": journal format version " + format + " is unknown; this tickwheel reads format "
                    + SegmentFiles.FORMAT + " (was the journal written by a newer release?)";
            throw new UncheckedIOException(msg, new IOException(msg));
        }
        if (buf.getLong(8) != number) {
            throw corrupt(path, 8, "header names segment " + buf.getLong(8));
        }
        int at = SegmentFiles.FILE_HEADER;
        while (at < buf.limit()) {
            RecordCodec.Status status = RecordCodec.read(buf, at, view);
            if (status == RecordCodec.Status.OK) {
                core.replay(view, JournalLocation.of(number, at));
                records++;
                at += view.length();
            } else if (status == RecordCodec.Status.TORN && last) {
                tornBytes = (long) buf.limit() - at;
                LOG.log(Level.WARNING, path + ": cutting a torn tail of " + tornBytes + " bytes at offset " + at
                        + " (a write interrupted by a crash; it was never acknowledged)");
                return at;
            } else {
                throw corrupt(path, at, status == RecordCodec.Status.TORN
                        ? "record runs past the end of a segment that is not the last"
                        : "record fails its length check or CRC32C");
            }
        }
        return at;
    }

    private static boolean isZeroOrPrefixOfHeader(final ByteBuffer buf, final long number) {
        ByteBuffer h = SegmentFiles.header(number);
        for (int i = 0; i < buf.limit(); i++) {
            if (buf.get(i) != h.get(i) && buf.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static UncheckedIOException corrupt(final Path path, final long offset, final String what) {
        String msg = "journal corrupt: " + path + " at offset " + offset + ": " + what
                + "; refusing to start (restore the file, or move it away to drop what it holds)";
        return new UncheckedIOException(msg, new IOException(msg));
    }
}
