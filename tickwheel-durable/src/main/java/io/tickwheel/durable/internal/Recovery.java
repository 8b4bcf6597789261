package io.tickwheel.durable.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;

/**
 * Recovery: reads every segment in order, verifies each record (length check and CRC32C), replays
 * it into the {@link JournalCore}, and cuts a torn tail off the last segment (what a crash in the
 * middle of a write leaves). A segment's records end at the end of its file, or where only zeros
 * are left (the preallocated end of a segment of format 2); a bad record followed by nothing but
 * zeros is a torn write. A record that is whole but wrong, a bad record followed by any non-zero
 * byte, or a torn record anywhere but at the end of the last segment, is corruption: recovery
 * refuses to start, naming the file and offset, and never skips it (skipping could resurrect a
 * cancelled timeout or lose a pending one).
 *
 * <p>Segments that hold no record (empty, a header or part of one, zeros) add nothing, wherever
 * they are, and the last segment for torn tails is the last that holds records: a roll whose new
 * segment could not be written and then not deleted either leaves one behind the segment the
 * writer went on appending to, and a crash may tear that one's tail. Cut there, it stays closed.
 *
 * <p>The last segment is reopened for appending cut to its whole records (preallocated again by
 * {@link SegmentFiles#openActive}); if it is of the older format, it is only cut, and a new segment
 * takes the appends, so no segment of format 1 ever gets a zero tail.
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
    /** Bytes cut off a torn tail (not counting zeros). */
    long tornBytes;
    /** The format of the segment read last. */
    private int format;

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
            int tearable = numbers.size() - 1;
            while (tearable > 0 && holdsNoRecords(files, numbers.get(tearable))) {
                tearable--;
            }
            RecordView view = new RecordView();
            for (int i = 0; i < numbers.size(); i++) {
                long n = numbers.get(i);
                boolean last = i == numbers.size() - 1;
                long valid = r.readSegment(files, core, n, i >= tearable, view);
                if (!last) {
                    if (i == tearable && r.tornBytes > 0) {
                        files.cut(n, valid); // records go to a later segment: a tail left here would not be the last
                    }
                    r.closedSizes.put(n, valid);
                } else if (valid > SegmentFiles.FILE_HEADER && r.format != SegmentFiles.FORMAT) {
                    files.cut(n, valid);
                    r.closedSizes.put(n, valid);
                    r.activeNumber = n + 1;
                } else {
                    r.activeNumber = n;
                    // An empty segment of the older format is simply started again in this one.
                    r.activeSize = r.format == SegmentFiles.FORMAT ? valid : 0;
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
            final boolean tearable, final RecordView view) throws IOException {
        Path path = files.path(number);
        ByteBuffer buf = files.readAll(number);
        format = SegmentFiles.FORMAT;
        if (isEmptySegment(buf, number)) {
            // A crash while the segment was being created, or a failed roll's: nothing was ever written to it.
            return 0;
        }
        if (buf.limit() < SegmentFiles.FILE_HEADER) {
            throw corrupt(path, 0, "segment header is incomplete");
        }
        if (buf.getInt(0) != SegmentFiles.MAGIC) {
            throw corrupt(path, 0, "not a tickwheel journal segment (bad magic)");
        }
        format = buf.getInt(4);
        if (format != SegmentFiles.FORMAT && format != SegmentFiles.FORMAT_GROWING) {
            String msg = path + ": journal format version " + format + " is unknown; this tickwheel reads format "
                    + SegmentFiles.FORMAT_GROWING + " (segments that grow) and format " + SegmentFiles.FORMAT
                    + " (preallocated segments) (was the journal written by a newer release?)";
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
                continue;
            }
            int dirtyEnd = RecordCodec.nonZeroEnd(buf, at);
            if (status == RecordCodec.Status.TORN && dirtyEnd == at) {
                // Only zeros left: the preallocated end of the segment (or zeros a crash left there).
                return at;
            }
            if (status == RecordCodec.Status.TORN && tearable) {
                tornBytes = (long) dirtyEnd - at;
                LOG.log(Level.WARNING, path + ": cutting a torn tail of " + tornBytes + " bytes at offset " + at
                        + " (a write interrupted by a crash; it was never acknowledged)");
                return at;
            }
            throw corrupt(path, at, status == RecordCodec.Status.TORN
                    ? "record is incomplete in a segment that is not the last"
                    : "record fails its length check or CRC32C, and bytes follow it");
        }
        return at;
    }

    /** Nothing but a prefix of the header (or zeros in its place), then zeros. */
    private static boolean isEmptySegment(final ByteBuffer buf, final long number) {
        // A whole header is a segment like any other (read as such, with its format checked).
        return noRecords(buf, number) && (buf.limit() < SegmentFiles.FILE_HEADER
                || !buf.slice(0, SegmentFiles.FILE_HEADER).equals(SegmentFiles.header(number)));
    }

    /** The header, a prefix of it, or zeros in its place, then nothing but zeros. */
    private static boolean noRecords(final ByteBuffer buf, final long number) {
        ByteBuffer h = SegmentFiles.header(number);
        int n = Math.min(buf.limit(), SegmentFiles.FILE_HEADER);
        for (int i = 0; i < n; i++) {
            if (buf.get(i) != h.get(i) && buf.get(i) != 0) {
                return false;
            }
        }
        return RecordCodec.allZero(buf, n);
    }

    /** Whether a segment holds no record; read whole only if zeros stand where its first record would. */
    private static boolean holdsNoRecords(final SegmentFiles files, final long number) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(SegmentFiles.FILE_HEADER + RecordCodec.HEADER);
        try (FileChannel ch = files.openForRead(number)) {
            while (head.hasRemaining() && ch.read(head, head.position()) >= 0) {
                // read until full or at the end
            }
        }
        return noRecords(head.flip(), number)
                && (head.limit() < head.capacity() || noRecords(files.readAll(number), number));
    }

    private static UncheckedIOException corrupt(final Path path, final long offset, final String what) {
        String msg = "journal corrupt: " + path + " at offset " + offset + ": " + what
                + "; refusing to start (restore the file, or move it away to drop what it holds)";
        return new UncheckedIOException(msg, new IOException(msg));
    }
}
