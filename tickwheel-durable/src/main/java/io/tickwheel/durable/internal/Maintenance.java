package io.tickwheel.durable.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.NavigableMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A journal store's upkeep after each batch: rolls to a new segment when the active one is full, and
 * starts a {@link Compactor} on its own thread when the journal has grown past twice what it needs.
 * Each compactor thread holds the files until it ends ({@link FileHolders}).
 *
 * <p>Threading: {@link #afterBatch} runs on the writer thread; the compactor on its own; the counts
 * and {@link #awaitCompaction} are used by anyone (atomics, a volatile field).
 */
final class Maintenance {

    private static final System.Logger LOG = System.getLogger(Maintenance.class.getName());

    private final JournalCore core;
    private final SegmentFiles files;
    /** Closed segments' sizes; guarded by {@code core}. */
    private final NavigableMap<Long, Long> closedSizes;
    private final FileHolders holders;
    private final long segmentBytes;
    private final long compactMinBytes;
    private volatile Thread compaction;
    /** Rolls to a new segment because the active one was full; written by the writer thread. */
    private final AtomicLong sizeRolls = new AtomicLong();
    /** Compactions started (the writer thread) and finished, deletes included (the compactor thread). */
    private final AtomicLong compactionsStarted = new AtomicLong();
    private final AtomicLong compactionsFinished = new AtomicLong();

    Maintenance(final JournalCore core, final SegmentFiles files, final NavigableMap<Long, Long> closedSizes,
            final FileHolders holders, final long segmentBytes, final long compactMinBytes) {
        this.core = core;
        this.files = files;
        this.closedSizes = closedSizes;
        this.holders = holders;
        this.segmentBytes = segmentBytes;
        this.compactMinBytes = compactMinBytes;
    }

    /**
     * Rolls and starts a compaction if due.
     *
     * @param journalBytes the bytes of records (what compaction weighs), read after any roll
     */
    void afterBatch(final LongSupplier journalBytes) {
        try {
            if (files.activeSize() >= segmentBytes) {
                roll(files.activeNumber() + 1);
                sizeRolls.incrementAndGet();
            }
            long disk = journalBytes.getAsLong();
            long needed;
            synchronized (core) {
                needed = core.neededBytes();
            }
            if (compaction == null && disk > compactMinBytes && disk > 2 * needed + SegmentFiles.FILE_HEADER) {
                long upTo = files.activeNumber();
                roll(upTo + 2);
                Thread t = new Thread(() -> compact(upTo), "tickwheel-journal-compactor");
                t.setDaemon(true);
                // Set before start (the compactor clears it when done, which may be before start
                // returns), and cleared if start throws (OutOfMemoryError: unable to create native
                // thread): a field left set would disable compaction for good.
                compaction = t;
                compactionsStarted.incrementAndGet();
                holders.hold();
                try {
                    t.start();
                } catch (Throwable e) {
                    holders.letGo();
                    compaction = null;
                    compactionsStarted.decrementAndGet();
                    throw e;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot roll the journal to a new segment", e);
        }
    }

    private void roll(final long next) throws IOException {
        long old = files.activeNumber();
        long oldSize = files.activeSize();
        files.openActive(next, 0);
        synchronized (core) {
            closedSizes.put(old, oldSize);
        }
    }

    private void compact(final long upTo) {
        try {
            long t0 = System.nanoTime();
            long size = new Compactor(core, files, closedSizes).run(upTo);
            compactionsFinished.incrementAndGet();
            LOG.log(Level.DEBUG, () -> "journal compacted segments up to " + upTo + " into " + size + " bytes in "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms");
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "journal compaction failed; the segments it has not replaced and deleted "
                    + "are kept (the next compaction takes them in)", e);
        } finally {
            compaction = null;
            holders.letGo();
        }
    }

    /**
     * Waits for a running compaction (at close); one still running then keeps its hold on the files.
     * An interrupt does not cut the wait short, and stays set ({@link Joins#await}).
     *
     * @param millis how long to wait
     * @param directory the journal, for the warning
     */
    void awaitCompaction(final long millis, final Object directory) {
        Thread t = compaction;
        if (t != null) {
            if (!Joins.await(t, millis)) {
                LOG.log(Level.WARNING, "journal " + directory + ": compaction still running after " + millis
                        + " ms; the directory stays locked until it is done");
            }
        }
    }

    /** Segments rolled because full, compactions started, compactions finished. */
    long[] counts() {
        return new long[] {sizeRolls.get(), compactionsStarted.get(), compactionsFinished.get()};
    }
}
