package io.tickwheel.durable.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The segment the writer appends to. With preallocation on, the file is extended ahead of the
 * records in chunks of real zero bytes, each chunk forced with its metadata once; the records then
 * overwrite zeros, so the per-batch {@code force(false)} has data only to flush and no file size or
 * block allocation to commit (on ext4 that commit costs about half again a data-only fdatasync).
 * The logical size (the end of the last record) is kept apart from the file length; recovery finds
 * the end of the records as the first all-zero record header.
 *
 * <p>Why real zeros: {@code setLength} leaves a sparse file, and fallocate (which Java does not
 * offer) leaves unwritten extents, whose conversion on first write is again metadata for fdatasync.
 *
 * <p>Without preallocation (chunk 0, the store's {@code fsync(false)}) the file grows with the
 * records as before: nothing is forced per batch, so there is nothing to save.
 *
 * <p>Threading: everything but {@link #size()} and {@link #fileBytes()} belongs to the writer thread
 * (and to recovery, before the writer starts); those two are volatile reads for other threads.
 */
final class ActiveSegment {

    /** Extensions are rounded up to whole pages. */
    static final long PAGE = 4096;

    private final long chunk;
    private final ByteBuffer zeros;
    private FileChannel ch;
    private long number = -1;
    /** The end of the last whole record written. */
    private volatile long size;
    /** The file's length as this class made it: zeros (or records) up to here, forced. */
    private volatile long allocated;
    /** The furthest a write may have reached since the last cut-back: what a cut-back must clear. */
    private long dirtyEnd;

    /**
     * Creates the holder; {@link #switchTo} opens the first segment.
     *
     * @param chunk bytes to extend the file by at a time; 0 for no preallocation
     */
    ActiveSegment(final long chunk) {
        this.chunk = chunk;
        this.zeros = chunk > 0 ? ByteBuffer.allocateDirect(64 << 10) : null;
    }

    /**
     * Prepares {@code c} as the next active segment: cut to {@code keep} bytes (a torn tail and any
     * zeros after it go), or emptied and given a header, then preallocated; all of it forced. On
     * failure the caller closes {@code c}, and this object is unchanged.
     *
     * @param c      the new segment's channel
     * @param n      its number
     * @param keep   the valid bytes to keep, or less than a header to start it afresh
     * @param header the header to write when starting afresh
     * @return the previous channel (the caller closes it), or null
     * @throws IOException if the file cannot be cut, written or forced
     */
    FileChannel switchTo(final FileChannel c, final long n, final long keep, final ByteBuffer header)
            throws IOException {
        long s;
        if (keep < SegmentFiles.FILE_HEADER) {
            c.truncate(0);
            long p = 0;
            while (header.hasRemaining()) {
                p += c.write(header, p);
            }
            s = SegmentFiles.FILE_HEADER;
        } else {
            c.truncate(keep);
            s = keep;
        }
        long a = s;
        if (chunk > 0) {
            writeZeros(c, s, roundUp(s + chunk));
            a = roundUp(s + chunk);
        }
        c.force(true);
        FileChannel old = ch;
        ch = c;
        number = n;
        size = s;
        allocated = a;
        dirtyEnd = s;
        return old;
    }

    /**
     * Before a roll: cuts the preallocated zeros off the segment being closed, so a closed segment's
     * file is exactly its records. Nothing to do without preallocation.
     *
     * @throws IOException if the cut cannot be made durable (the segment stays active, still usable)
     */
    void trimForRoll() throws IOException {
        if (chunk > 0 && ch != null && allocated > size) {
            // Lowered first: if the force fails, the next append extends again rather than trust
            // zeros that may be gone.
            allocated = size;
            ch.truncate(size);
            ch.force(true);
        }
    }

    /**
     * Appends bytes after the last record, extending the preallocation first if they would pass it
     * (not yet forced).
     *
     * @param bytes what to write, position to limit
     * @return the offset they start at
     * @throws IOException if a write fails (the caller cuts back)
     */
    long append(final ByteBuffer bytes) throws IOException {
        long at = size;
        long end = at + bytes.remaining();
        if (chunk > 0 && end > allocated) {
            long target = roundUp(Math.max(end, allocated + chunk));
            writeZeros(ch, allocated, target);
            ch.force(true);
            allocated = target;
        }
        dirtyEnd = Math.max(dirtyEnd, end);
        long p = at;
        while (bytes.hasRemaining()) {
            p += ch.write(bytes, p);
        }
        size = end;
        return at;
    }

    /**
     * Forces the records written so far (data only: the preallocation made the metadata durable).
     *
     * @throws IOException if the disk reports an error
     */
    void force() throws IOException {
        ch.force(false);
    }

    /**
     * Removes every byte written after {@code to} (a failed batch) and forces the removal: with
     * preallocation the range is overwritten with zeros, so the file keeps its length and the next
     * batch its cheap force; if zeros cannot be written, the file is truncated instead (and
     * preallocated again by the next append). Either way the records end at {@code to} on disk
     * before anything is written after it, so no byte of the failed batch can follow a later batch.
     *
     * @param to the size before the failed batch
     * @throws IOException if neither way can be made durable (the caller tries again before the next batch)
     */
    void cutBack(final long to) throws IOException {
        size = to;
        if (chunk > 0) {
            try {
                zeroBackwards(to, Math.min(dirtyEnd, allocated));
                ch.force(true);
                dirtyEnd = to;
                return;
            } catch (IOException e) {
                try {
                    truncate(to);
                } catch (IOException again) {
                    again.addSuppressed(e);
                    throw again;
                }
                return;
            }
        }
        truncate(to);
    }

    private void truncate(final long to) throws IOException {
        // allocated drops only once the file did: if truncate throws, the retry must still zero the
        // whole failed batch, not the empty range below a lowered allocated.
        ch.truncate(to);
        allocated = Math.min(allocated, to);
        ch.force(true);
        dirtyEnd = to;
    }

    /**
     * Zeroes a failed batch from its end back to {@code from}, one page-aligned page at a time: a
     * kill -9 part-way then leaves the batch's head followed by zeros only, which recovery reads as
     * a torn tail. Zeroing front to back would leave zeros followed by the rest of the batch, which
     * recovery must refuse as corruption.
     */
    private void zeroBackwards(final long from, final long to) throws IOException {
        long end = to;
        while (end > from) {
            long start = Math.max(from, (end - 1) / PAGE * PAGE);
            writeZeros(ch, start, end);
            end = start;
        }
    }

    private void writeZeros(final FileChannel c, final long from, final long to) throws IOException {
        long p = from;
        while (p < to) {
            ByteBuffer z = zeros.duplicate().clear();
            z.limit((int) Math.min(z.capacity(), to - p));
            while (z.hasRemaining()) {
                p += c.write(z, p);
            }
        }
    }

    /** Rounds up to whole pages. */
    static long roundUp(final long bytes) {
        return (bytes + PAGE - 1) / PAGE * PAGE;
    }

    long number() {
        return number;
    }

    /**
     * The end of the last record.
     *
     * @return bytes
     */
    long size() {
        return size;
    }

    /**
     * The file's length: the records and the zeros preallocated after them.
     *
     * @return bytes
     */
    long fileBytes() {
        return Math.max(size, allocated);
    }

    FileChannel channel() {
        return ch;
    }

    /**
     * How much the active segment is extended by at a time: {@link SegmentFiles#DEFAULT_CHUNK}, or
     * less for small segments (a test's few KiB), so a segment's file stays near its roll size.
     *
     * @param segmentBytes the roll size
     * @return bytes, a whole number of pages
     */
    static long preallocationChunk(final long segmentBytes) {
        return Math.min(SegmentFiles.DEFAULT_CHUNK, Math.max(PAGE, roundUp(segmentBytes)));
    }
}
