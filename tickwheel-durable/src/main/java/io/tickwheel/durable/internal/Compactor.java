package io.tickwheel.durable.internal;

import io.tickwheel.durable.internal.JournalCore.Failed;
import io.tickwheel.durable.internal.JournalOp.KeyId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * Compaction: rewrites the records still needed (pending and failed timeouts) of segments
 * {@code 1..upTo} into one new segment {@code upTo + 1}, then deletes the old ones, so disk use
 * follows the live set instead of the history. The writer has already moved on to segment
 * {@code upTo + 2} when compaction starts, so nothing new lands in the segments being rewritten,
 * and replay order stays right: the copies replay before everything written since. A crash at any
 * point leaves either the old segments (the temporary file is deleted at recovery), or old and new
 * together (replaying the copies again changes nothing), or only the new.
 *
 * <p>Three rules keep a crash (or a failed delete) from losing or resurrecting a timeout:
 * <ul>
 *   <li>The new segment opens with a {@link RecordCodec#VERSIONS} record: the finished and cancelled
 *       timeouts' records are dropped, and with them perhaps every record of the highest versions, which
 *       recovery would otherwise give out again.</li>
 *   <li>The new segment is forced, renamed into place and its directory entry forced before any old
 *       segment is deleted, and then the old ones go in ascending order: a crash between two deletes
 *       leaves a suffix of the old segments, in which every cancel or done record still follows the
 *       schedule it ends (a record only ever ends an earlier one), so nothing is resurrected.</li>
 *   <li>The new segment joins the closed segments before the first delete: if a delete fails, the old
 *       segments left over and the new one are all replaced by the next compaction. (Were the new one
 *       left out, no later compaction would delete it, and once one had dropped the cancel of a timeout
 *       it holds, its stale copy would bring that timeout back at the next recovery.)</li>
 *   <li>Every segment file numbered up to {@code upTo} goes, not only the closed ones the store knows:
 *       a failure after a file was published and before it was registered (a source's close that
 *       throws, an {@code Error} in a roll or here) leaves such a file, which would otherwise outlive
 *       the cancels deleted here, as above. Its live records are copied like any other's: the live set,
 *       not the closed segments, says what to copy.</li>
 * </ul>
 *
 * <p>Threading: runs on its own thread while the writer goes on; it reads the state in chunks
 * under the store's lock, copies records without it (only compaction touches old segments' bytes),
 * relocates under the lock again (readers hold it, so no read reaches an old segment after that),
 * and deletes the old segments without it.
 */
public final class Compactor {

    private static final int CHUNK = 65_536;

    private final JournalCore core;
    private final SegmentFiles files;
    private final NavigableMap<Long, Long> closedSizes;
    private final Map<Long, FileChannel> sources = new HashMap<>();

    /**
     * Creates a compaction run.
     *
     * @param core        the state (also the lock)
     * @param files       the segments
     * @param closedSizes sizes of the closed segments (guarded by the lock; updated at the end)
     */
    public Compactor(final JournalCore core, final SegmentFiles files, final NavigableMap<Long, Long> closedSizes) {
        this.core = core;
        this.files = files;
        this.closedSizes = closedSizes;
    }

    /**
     * Compacts segments up to {@code upTo} into {@code upTo + 1}.
     *
     * @param upTo the last segment to rewrite
     * @return the compacted segment's size
     * @throws IOException if reading or writing fails (the old segments are then kept)
     */
    public long run(final long upTo) throws IOException {
        long target = upTo + 1;
        int slots;
        long highestVersion;
        List<Map.Entry<KeyId, Failed>> failedCopy;
        synchronized (core) {
            slots = core.live.slots();
            highestVersion = core.highestVersion();
            failedCopy = new ArrayList<>(core.failed.entrySet());
        }
        long[] newLoc = new long[slots];
        Arrays.fill(newLoc, -1);
        Map<KeyId, long[]> failedMoves = new HashMap<>();
        // Listed before anything is published, so a failing listing costs nothing; no file numbered up
        // to upTo appears after this (the writer is past upTo + 1). It also clears earlier runs' temporaries.
        List<Long> onDisk = files.list();
        FileChannel out = files.beginCompacted(target);
        long pos = SegmentFiles.FILE_HEADER;
        try {
            ByteBuffer mark = RecordCodec.buffer(32);
            RecordCodec.putVersions(mark, highestVersion);
            pos += write(mark.flip(), out, pos);
            long[] locs = new long[CHUNK];
            int[] lens = new int[CHUNK];
            for (int start = 0; start < slots; start += CHUNK) {
                int n = 0;
                int end = Math.min(slots, start + CHUNK);
                synchronized (core) {
                    for (int s = start; s < end; s++) {
                        LiveSet live = core.live;
                        if (live.version(s) >= 0 && JournalLocation.segmentOf(live.location(s)) <= upTo) {
                            locs[s - start] = live.location(s);
                            lens[s - start] = live.length(s);
                            n++;
                        } else {
                            lens[s - start] = -1;
                        }
                    }
                }
                if (n == 0) {
                    continue;
                }
                for (int s = start; s < end; s++) {
                    if (lens[s - start] >= 0) {
                        newLoc[s] = JournalLocation.of(target, pos);
                        pos += copy(locs[s - start], lens[s - start], out, pos);
                    }
                }
            }
            for (Map.Entry<KeyId, Failed> e : failedCopy) {
                Failed f = e.getValue();
                if (JournalLocation.segmentOf(f.location()) <= upTo) {
                    failedMoves.put(e.getKey(), new long[] {f.location(), JournalLocation.of(target, pos)});
                    pos += copy(f.location(), f.length(), out, pos);
                }
            }
            files.publish(target, out);
        } finally {
            out.close();
            for (FileChannel ch : sources.values()) {
                ch.close();
            }
        }
        relocateAndDelete(upTo, newLoc, failedMoves, pos, onDisk);
        return pos;
    }

    private void relocateAndDelete(final long upTo, final long[] newLoc, final Map<KeyId, long[]> failedMoves,
            final long size, final List<Long> onDisk) throws IOException {
        NavigableSet<Long> obsolete;
        synchronized (core) {
            LiveSet live = core.live;
            for (int s = 0; s < newLoc.length; s++) {
                // Nothing is written to segments <= upTo any more, so a location still there is the
                // one that was copied: the slot was neither removed, replaced nor reused since.
                if (newLoc[s] >= 0 && live.version(s) >= 0 && JournalLocation.segmentOf(live.location(s)) <= upTo) {
                    live.relocate(s, newLoc[s]);
                }
            }
            for (Map.Entry<KeyId, long[]> m : failedMoves.entrySet()) {
                Failed f = core.failed.get(m.getKey());
                if (f != null && f.location() == m.getValue()[0]) {
                    core.failed.put(m.getKey(), new Failed(f.timeout(), m.getValue()[1], f.length()));
                }
            }
            closedSizes.put(upTo + 1, size);
            obsolete = new TreeSet<>(closedSizes.headMap(upTo, true).keySet());
            for (Long n : onDisk) {
                if (n <= upTo) {
                    obsolete.add(n); // one the store lost track of: see the class comment
                }
            }
            for (Long n : obsolete) {
                files.forget(n); // no location points into it any more: relocated above
            }
        }
        // Without the lock, which every lookup and the writer's batches take: a delete that hangs on a
        // failing disk holds up only this thread. Each segment stays among the closed ones until it is
        // gone, so that one a delete failed on is replaced by the next compaction (see the class comment).
        for (Long n : obsolete) {
            files.delete(n);
            synchronized (core) {
                closedSizes.remove(n);
            }
        }
    }

    private int copy(final long location, final int length, final FileChannel out, final long at)
            throws IOException {
        long number = JournalLocation.segmentOf(location);
        FileChannel src = sources.get(number);
        if (src == null) {
            src = files.openForRead(number);
            sources.put(number, src);
        }
        ByteBuffer b = ByteBuffer.allocate(length);
        long from = JournalLocation.offsetOf(location);
        while (b.hasRemaining()) {
            if (src.read(b, from + b.position()) < 0) {
                throw new IOException(files.path(number) + ": record at offset " + from + " runs past the end");
            }
        }
        return write(b.flip(), out, at);
    }

    private static int write(final ByteBuffer b, final FileChannel out, final long at) throws IOException {
        int length = b.remaining();
        long p = at;
        while (b.hasRemaining()) {
            p += out.write(b, p);
        }
        return length;
    }
}
