package io.tickwheel.durable.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The journal's directory: its lock file, and segment files named {@code NNNNNNNNNNNNNNNNNNNN.seg}
 * (the segment number, zero-padded so names sort in replay order). Each segment starts with a
 * 16-byte header (magic {@code TWJ1}, format version, segment number), then records. IO only: no
 * records are decoded here and no timer is known.
 *
 * <p>Formats: 1, segments that grow with their records and end at the end of the file; 2 (written
 * now), the same records, but the segment appended to may be preallocated with zeros after them
 * ({@code ActiveSegment}), so its records end at the first all-zero record header. A reader of
 * format 1 would take that zero tail, or a torn record followed by zeros, for corruption; hence
 * the new number, which such a reader refuses with a clear message. This build reads both.
 *
 * <p>Threading: {@link #append}, {@link #force}, {@link #cutBack} and {@link #openActive} belong to
 * the writer thread; {@link #read} and {@link #forget} to whoever holds the store's lock (readers
 * hold it, so a segment is forgotten, and then deleted, only once no read can reach it).
 */
public final class SegmentFiles implements AutoCloseable {

    /** "TWJ1". */
    public static final int MAGIC = 0x54574A31;
    /** The format this build writes; it reads this one and {@link #FORMAT_GROWING}. */
    public static final int FORMAT = 2;
    /** The first format: segments that only grow, never preallocated. */
    public static final int FORMAT_GROWING = 1;
    /** The default preallocation chunk: about a millisecond of zeros to write and force on a fast disk. */
    public static final long DEFAULT_CHUNK = 1 << 20;
    /** Bytes of a segment's header. */
    public static final int FILE_HEADER = 16;

    private final Path dir;
    private final ChannelFactory channels;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final Map<Long, FileChannel> readers = new HashMap<>();
    private final ActiveSegment active;

    /**
     * Opens (creating if needed) a journal directory and locks it; the active segment grows with its
     * records (no preallocation).
     *
     * @param dir      the directory
     * @param channels how channels are opened
     * @throws IllegalStateException if another process, or another store in this JVM, holds it
     * @throws UncheckedIOException  if it cannot be created or locked
     */
    public SegmentFiles(final Path dir, final ChannelFactory channels) {
        this(dir, channels, 0);
    }

    /**
     * Opens (creating if needed) a journal directory and locks it.
     *
     * @param dir        the directory
     * @param channels   how channels are opened
     * @param preallocate bytes of zeros to keep ahead of the active segment's records, added this
     *                   many at a time; 0 for none
     * @throws IllegalStateException if another process, or another store in this JVM, holds it
     * @throws UncheckedIOException  if it cannot be created or locked
     */
    public SegmentFiles(final Path dir, final ChannelFactory channels, final long preallocate) {
        this.dir = dir;
        this.channels = channels;
        this.active = new ActiveSegment(preallocate);
        FileChannel ch = null;
        try {
            Files.createDirectories(dir);
            ch = FileChannel.open(dir.resolve("journal.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l = ch.tryLock();
            if (l == null) {
                throw new IllegalStateException("journal " + dir + " is in use by another process (lock file "
                        + dir.resolve("journal.lock") + " is held)");
            }
            lockChannel = ch;
            lock = l;
        } catch (OverlappingFileLockException e) {
            closeQuietly(ch);
            throw new IllegalStateException("journal " + dir + " is already open in this JVM; close that store first "
                    + "(a closed store keeps it until its writer or compactor is done with a hung disk)", e);
        } catch (IOException e) {
            closeQuietly(ch);
            throw new UncheckedIOException("cannot open journal directory " + dir, e);
        } catch (RuntimeException | Error e) {
            closeQuietly(ch); // an Error too (out of memory in tryLock): else the lock outlives the failure
            throw e;
        }
    }

    /**
     * The segment numbers present, in replay order; stray temporary files of an interrupted
     * compaction are deleted.
     *
     * @return the numbers
     * @throws IOException if the directory cannot be listed
     */
    public List<Long> list() throws IOException {
        List<Long> numbers = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path p : files) {
                String name = String.valueOf(p.getFileName());
                if (name.endsWith(".seg.tmp")) {
                    Files.delete(p);
                } else if (name.endsWith(".seg") && name.length() == 24) {
                    numbers.add(Long.parseLong(name.substring(0, 20)));
                }
            }
        }
        numbers.sort(null);
        return numbers;
    }

    /**
     * A segment's path.
     *
     * @param number the segment number
     * @return its path
     */
    public Path path(final long number) {
        return dir.resolve(String.format(Locale.ROOT, "%020d.seg", number));
    }

    /**
     * Reads a whole segment into memory (recovery).
     *
     * @param number the segment number
     * @return its bytes, big-endian, position 0
     * @throws IOException if it cannot be read
     */
    public ByteBuffer readAll(final long number) throws IOException {
        try (FileChannel ch = channels.open(path(number), StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE - 16) {
                throw new IOException(path(number) + ": segment of " + size + " bytes is too large");
            }
            ByteBuffer buf = ByteBuffer.allocate((int) size);
            while (buf.hasRemaining() && ch.read(buf, buf.position()) >= 0) {
                // read until full
            }
            return buf.flip();
        }
    }

    /**
     * Makes {@code number} the segment appended to: cut to {@code size} (a torn tail, and any zeros
     * after the records, are cut; a header rewritten if missing), or created with a header; then
     * preallocated if this journal preallocates, and forced. The segment it replaces first loses its
     * preallocated zeros, so a closed segment's file holds its records only. If this fails, the
     * previous segment stays active.
     *
     * @param number the segment number
     * @param size   the valid bytes to keep, or 0 to create it
     * @throws IOException if it cannot be opened or written
     */
    public void openActive(final long number, final long size) throws IOException {
        active.trimForRoll();
        FileChannel ch = channels.open(path(number), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileChannel old;
        try {
            old = active.switchTo(ch, number, size, header(number));
        } catch (IOException | RuntimeException | Error e) {
            closeQuietly(ch);
            if (size == 0) { // a failed roll's segment must not outlive it: see deleteAfter
                channels.deleteAfter(path(number), e);
            }
            throw e;
        }
        closeQuietly(old);
        forceDirectory();
    }

    /**
     * Cuts a segment that will not be appended to back to its valid bytes (recovery, for a last
     * segment of an older format: a new segment takes the appends).
     *
     * @param number the segment number
     * @param size   the valid bytes
     * @throws IOException if it cannot be cut
     */
    public void cut(final long number, final long size) throws IOException {
        try (FileChannel ch = channels.open(path(number), StandardOpenOption.WRITE)) {
            ch.truncate(size);
            ch.force(true);
        }
    }

    /**
     * A segment header.
     *
     * @param number the segment number
     * @return 16 bytes, ready to write
     */
    public static ByteBuffer header(final long number) {
        return ByteBuffer.allocate(FILE_HEADER).putInt(MAGIC).putInt(FORMAT).putLong(number).flip();
    }

    /**
     * Appends bytes to the active segment (not yet forced); extends its preallocation first if
     * they would pass it.
     *
     * @param bytes what to write, position to limit
     * @return the offset they start at
     * @throws IOException if the write fails (the caller cuts back)
     */
    public long append(final ByteBuffer bytes) throws IOException {
        return active.append(bytes);
    }

    /**
     * Forces the active segment's data to stable storage.
     *
     * @throws IOException if the disk reports an error
     */
    public void force() throws IOException {
        active.force();
    }

    /**
     * Removes everything written to the active segment after {@code size} (a failed batch) and
     * forces the removal: zeros over it when preallocated, else a truncation.
     *
     * @param size the size before the batch
     * @throws IOException if the disk still fails
     */
    public void cutBack(final long size) throws IOException {
        active.cutBack(size);
    }

    /**
     * The active segment's number.
     *
     * @return the number
     */
    public long activeNumber() {
        return active.number();
    }

    /**
     * The active segment's size: the end of its last record.
     *
     * @return bytes
     */
    public long activeSize() {
        return active.size();
    }

    /**
     * The active segment's file length: its records and the zeros preallocated after them.
     *
     * @return bytes
     */
    public long activeFileBytes() {
        return active.fileBytes();
    }

    /**
     * Reads one record.
     *
     * @param location where ({@link JournalLocation})
     * @param length   its length
     * @return its bytes, position 0
     * @throws IOException if it cannot be read
     */
    public ByteBuffer read(final long location, final int length) throws IOException {
        long number = JournalLocation.segmentOf(location);
        FileChannel ch = readers.get(number);
        if (ch == null || !ch.isOpen()) {
            // A reader interrupted mid-read closes the channel (ClosedByInterruptException): the
            // next reader opens a fresh one instead of failing for good.
            ch = channels.open(path(number), StandardOpenOption.READ);
            readers.put(number, ch);
        }
        ByteBuffer buf = ByteBuffer.allocate(length);
        long p = JournalLocation.offsetOf(location);
        while (buf.hasRemaining()) {
            if (ch.read(buf, p + buf.position()) < 0) {
                throw new IOException(path(number) + ": record at offset " + p + " runs past the end");
            }
        }
        return buf.flip();
    }

    /**
     * Starts a compacted segment: a temporary file with the segment's header, published by
     * {@link #publish} once complete.
     *
     * @param number its number
     * @return the channel, positioned after the header
     * @throws IOException if it cannot be created
     */
    public FileChannel beginCompacted(final long number) throws IOException {
        FileChannel ch = channels.open(tempPath(number), StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        try {
            ByteBuffer h = header(number);
            while (h.hasRemaining()) {
                ch.write(h);
            }
            return ch;
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
    }

    /**
     * Opens a segment for reading by a thread other than the store's readers (compaction).
     *
     * @param number the segment number
     * @return a new read channel, closed by the caller
     * @throws IOException if it cannot be opened
     */
    public FileChannel openForRead(final long number) throws IOException {
        return channels.open(path(number), StandardOpenOption.READ);
    }

    /**
     * Forces and closes a compacted segment, then renames it into place (atomic, directory forced).
     *
     * @param number its number
     * @param ch     the channel from {@link #beginCompacted}
     * @throws IOException if it cannot be made durable
     */
    public void publish(final long number, final FileChannel ch) throws IOException {
        try (ch) {
            ch.force(true);
        }
        Files.move(tempPath(number), path(number), StandardCopyOption.ATOMIC_MOVE);
        forceDirectory();
    }

    private Path tempPath(final long number) {
        return dir.resolve(path(number).getFileName() + ".tmp");
    }

    /** Closes the read channel of a segment no location points into any more (store's lock held). */
    public void forget(final long number) {
        closeQuietly(readers.remove(number));
    }

    /**
     * Deletes a segment compaction made obsolete, after {@link #forget}, without the store's lock: a
     * delete that hangs on a failing disk then stalls the compactor alone.
     *
     * @param number the segment number
     * @throws IOException if it cannot be deleted
     */
    public void delete(final long number) throws IOException {
        channels.delete(path(number));
    }

    private void forceDirectory() {
        // Makes a created or renamed file's name durable; some platforms cannot open a directory.
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException ignored) {
            // best effort: Linux supports it, which is where the durability claim is made
        }
    }

    @Override
    public void close() {
        for (FileChannel ch : readers.values()) {
            closeQuietly(ch);
        }
        readers.clear();
        closeQuietly(active.channel());
        closeQuietly(lock); // closing the channel releases it too
        closeQuietly(lockChannel);
    }

    private static void closeQuietly(final AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // nothing more to do with a channel that will not close
            }
        }
    }
}
