package io.tickwheel.durable.internal;

import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What {@code JournalStore} delegates to: the store's life cycle (built, open, closed), its threads
 * (the {@link GroupCommitWriter}, the {@link DueScanner}, a {@link Compactor} now and then), and the
 * reads that answer under the lock ({@code find}, {@code claim}, counts).
 *
 * <p>Threading: thread-safe. The state is guarded by the {@link JournalCore}'s monitor; the life cycle
 * by this object's monitor; {@link #afterBatch} runs on the writer thread.
 */
public final class JournalStoreCore implements GroupCommitWriter.Host {

    private static final System.Logger LOG = System.getLogger(JournalStoreCore.class.getName());
    private static final long CLOSE_WAIT_MILLIS = 30_000;

    private final Path directory;
    private final boolean fsync;
    private final int maxPayloadBytes;
    private final int maxDelivered;
    private final long lookaheadMillis;
    private final SegmentFiles files;
    private final JournalCore core = new JournalCore();
    /** Closes {@code files} once this store and each of its threads let go (see {@link FileHolders}). */
    private final FileHolders holders;
    /** How long close waits for each thread; shorter in tests of a close that gives up waiting. */
    private volatile long closeWaitMillis = CLOSE_WAIT_MILLIS;
    private volatile Consumer<Thread> threadStarter = Thread::start;
    /** Closed segments' sizes; guarded by {@code core}. */
    private final TreeMap<Long, Long> closedSizes = new TreeMap<>();
    private volatile TimerStore.Sink sink;
    private volatile Clock clock;
    private volatile GroupCommitWriter writer;
    private DueScanner scanner;
    private final Maintenance maintenance;
    private volatile boolean closed;

    /**
     * Locks the directory.
     *
     * @param directory       the journal directory
     * @param fsync           force each batch
     * @param maxPayloadBytes payload limit
     * @param channels        how channels are opened
     * @param segmentBytes    roll segments at this size
     * @param compactMinBytes do not compact below this journal size
     * @param maxDelivered    most timeouts held by the timer at once
     * @param lookaheadMillis how far ahead timeouts are delivered
     * @param afterLock       test seam, run once the directory is locked (an Error there, as from an
     *                        allocation that runs out of memory); {@code () -> { }} otherwise
     */
    public JournalStoreCore(final Path directory, final boolean fsync, final int maxPayloadBytes,
            final ChannelFactory channels, final long segmentBytes, final long compactMinBytes,
            final int maxDelivered, final long lookaheadMillis, final Runnable afterLock) {
        this.directory = directory;
        this.fsync = fsync;
        this.maxPayloadBytes = maxPayloadBytes;
        this.maxDelivered = maxDelivered;
        this.lookaheadMillis = lookaheadMillis;
        // Preallocation only pays where each batch is forced; with fsync off it would only add writes.
        this.files = new SegmentFiles(directory, channels, fsync ? ActiveSegment.preallocationChunk(segmentBytes) : 0);
        try {
            afterLock.run();
            this.holders = new FileHolders(files::close, core);
            this.maintenance = new Maintenance(core, files, closedSizes, holders, segmentBytes, compactMinBytes);
        } catch (Throwable t) {
            // Nobody will ever hold this store to close it: an Error here (out of memory) would
            // otherwise keep the directory locked, and the journal unopenable, for the JVM's life.
            files.close();
            throw t;
        }
    }

    /**
     * Test seam: how long {@link #close} waits for each thread before it leaves the rest to them.
     *
     * @param millis the wait
     */
    public void closeWait(final long millis) {
        closeWaitMillis = millis;
    }

    /**
     * The payload limit.
     *
     * @return bytes
     */
    public int maxPayloadBytes() {
        return maxPayloadBytes;
    }

    /**
     * Recovers and starts the threads.
     *
     * @param s the sink
     * @param c the clock
     */
    public synchronized void open(final TimerStore.Sink s, final Clock c) {
        if (closed || writer != null) {
            throw new IllegalStateException(
                    closed ? "the journal store is closed" : "the journal store is already open");
        }
        try {
            Recovery r = Recovery.run(files, core);
            synchronized (core) {
                closedSizes.putAll(r.closedSizes);
            }
            LOG.log(Level.INFO, "journal " + directory + " recovered: " + r.records + " records, "
                    + core.live.size() + " pending, " + core.failed.size() + " failed");
        } catch (RuntimeException | Error e) {
            closed = true;
            holders.letGo();
            throw e;
        }
        clock = c;
        sink = s;
        try {
            GroupCommitWriter w = new GroupCommitWriter(core, files, fsync, this, "tickwheel-journal-writer",
                    holders::letGo);
            writer = w;
            start(w::start);
            scanner = new DueScanner(core, files, c, s, maxDelivered, "tickwheel-journal-scanner", holders::letGo);
            start(scanner::start);
        } catch (RuntimeException | Error e) {
            // A thread that could not start (OutOfMemoryError: unable to create native thread): the
            // caller gets no open store to close, so it lets go of all it took (the writer, if it
            // runs, the files, the directory's lock), and the directory can be opened again.
            closed = true;
            GroupCommitWriter w = writer;
            try {
                if (w != null) {
                    w.close(closeWaitMillis);
                }
            } catch (RuntimeException | Error again) {
                e.addSuppressed(again);
            } finally {
                holders.letGo();
            }
            throw e;
        }
    }

    /** Starts a thread that holds the files until it ends; a start that throws never ran, so its hold goes. */
    private void start(final Consumer<Consumer<Thread>> thread) {
        holders.hold();
        try {
            thread.accept(threadStarter);
        } catch (RuntimeException | Error e) {
            holders.letGo();
            throw e;
        }
    }

    /**
     * Test seam: how the store's writer and scanner threads are started.
     *
     * @param starter {@code Thread::start}, or one that throws as a JVM out of threads does
     */
    public void threadStarter(final Consumer<Thread> starter) {
        threadStarter = starter;
    }

    /**
     * Hands an op to the writer.
     *
     * @param op the op
     * @return its future
     */
    public CompletableFuture<Object> submit(final JournalOp op) {
        GroupCommitWriter w = writer;
        if (w == null || closed) {
            op.future().completeExceptionally(new IllegalStateException(
                    closed ? "the journal store is closed" : "the journal store is not open yet"));
        } else {
            w.submit(op);
        }
        return op.future();
    }

    /**
     * The writer.
     *
     * @return the writer
     */
    public GroupCommitWriter writer() {
        GroupCommitWriter w = writer;
        if (w == null) {
            throw new IllegalStateException("the journal store is not open yet");
        }
        return w;
    }

    /**
     * Looks up a pending timeout, reading its record back.
     *
     * @param type type
     * @param key  key
     * @return it, or empty
     */
    public Optional<StoredTimeout> find(final String type, final String key) {
        JournalOp probe = JournalOp.cancel(type, key);
        synchronized (core) {
            if (closed) { // else a read after the files closed would open a channel nobody closes
                throw new IllegalStateException("the journal store is closed");
            }
            int s = core.live.find(probe.hash1, probe.hash2);
            if (s < 0) {
                return Optional.empty();
            }
            try {
                ByteBuffer rec = files.read(core.live.location(s), core.live.length(s));
                RecordView view = new RecordView();
                if (RecordCodec.read(rec, 0, view) != RecordCodec.Status.OK) {
                    throw new IOException("record of " + type + "/" + key + " no longer verifies");
                }
                return Optional.of(RecordCodec.toTimeout(view));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + type + "/" + key + " from the journal", e);
            }
        }
    }

    /**
     * Counts pending timeouts.
     *
     * @return the count
     */
    public long pendingTimeouts() {
        synchronized (core) {
            return core.live.size();
        }
    }

    /**
     * Lists the failed set, oldest first.
     *
     * @return copies
     */
    public List<StoredTimeout> failed() {
        synchronized (core) {
            List<StoredTimeout> out = new ArrayList<>(core.failed.size());
            core.failed.values().forEach(f -> out.add(f.timeout()));
            return out;
        }
    }

    /**
     * Claims a delivered timeout for one run.
     *
     * @param t the timeout
     * @return true if it is pending at that version and not claimed, cancelled or replaced
     */
    public boolean claim(final StoredTimeout t) {
        JournalOp probe = JournalOp.cancel(t.type(), t.key());
        synchronized (core) {
            int s = core.live.find(probe.hash1, probe.hash2);
            if (closed || s < 0 || core.live.version(s) != t.version()
                    || (core.live.flags(s) & (LiveSet.CLAIMED | LiveSet.DOOMED)) != 0) {
                return false;
            }
            core.live.flag(s, LiveSet.CLAIMED, true);
            return true;
        }
    }

    /**
     * The bytes of the segment files, the zeros preallocated in the active one included.
     *
     * @return bytes
     */
    public long diskBytes() {
        synchronized (core) {
            return closedBytes() + files.activeFileBytes();
        }
    }

    /**
     * The zeros preallocated after the active segment's records (part of {@link #diskBytes}).
     *
     * @return bytes
     */
    public long preallocatedBytes() {
        return Math.max(0, files.activeFileBytes() - files.activeSize());
    }

    /** The bytes of records: what compaction weighs (it cannot reclaim preallocated zeros). */
    private long journalBytes() {
        synchronized (core) {
            return closedBytes() + files.activeSize();
        }
    }

    private long closedBytes() {
        long sum = 0;
        for (long size : closedSizes.values()) {
            sum += size;
        }
        return sum;
    }

    @Override
    public long horizonMillis() {
        Clock c = clock;
        return c == null ? Long.MIN_VALUE : JournalCore.millis(c.instant()) + lookaheadMillis;
    }

    @Override
    public TimerStore.Sink sink() {
        return sink;
    }

    @Override
    public void afterBatch() {
        if (!closed) { // no roll and no new compaction once close has begun: the writer is on its way out
            maintenance.afterBatch(this::journalBytes);
        }
    }

    /**
     * Maintenance counts since open, for tests that must show they made the journal roll and compact:
     * segments rolled because they were full, compactions started, compactions finished (deletes
     * included). A started one that has not finished is running, or failed.
     *
     * @return the three counts, in that order
     */
    public long[] maintenanceCounts() {
        return maintenance.counts();
    }

    /**
     * Stops the threads (writing what is queued first) and releases the directory. Idempotent. Waits
     * for each thread up to a bound (30 s); a thread still busy then (a force that hangs, a long
     * compaction) keeps the files open and the directory locked until it is done (see
     * {@link FileHolders}), and its batch's ops still complete, done or failed, as they end. Called on
     * the writer thread, it waits for neither the writer nor a compaction ({@link GroupCommitWriter#close}).
     * An interrupt of the calling thread cuts no wait short; it is still set when close returns.
     */
    public void close() {
        GroupCommitWriter w;
        DueScanner sc;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            w = writer;
            sc = scanner;
        }
        long wait = closeWaitMillis;
        // On the writer thread (a stage chained to an op's future) close waits neither for the writer
        // (itself) nor for a compaction: the directory stays locked until the writer ends anyway.
        boolean onWriter = w != null && w.isWriterThread();
        // Each step runs whatever the one before threw, and an interrupt cuts no wait short (it stays
        // set): the writer was never told to stop once the scanner's join threw InterruptedException.
        CloseSteps.runAll(() -> {
            if (sc != null) {
                sc.stop(wait);
            }
        }, () -> {
            if (w != null && !w.close(wait) && !onWriter) {
                LOG.log(Level.WARNING, "journal " + directory + ": the writer is still busy after " + wait
                        + " ms (a write or force that hangs?); the directory stays locked until it is done");
            }
        }, () -> {
            if (!onWriter) {
                maintenance.awaitCompaction(wait, directory);
            }
        }, holders::letGo);
    }

    /**
     * Whether the store and its threads let go of the files (the directory can be opened again); for tests.
     *
     * @return true once released
     */
    public boolean released() {
        return holders.released();
    }

    @Override
    public String toString() {
        return directory.toString();
    }
}
