package io.tickwheel.durable;

import io.tickwheel.durable.internal.ChannelFactory;
import io.tickwheel.durable.internal.DueScanner;
import io.tickwheel.durable.internal.GroupCommitWriter;
import io.tickwheel.durable.internal.Joins;
import io.tickwheel.durable.internal.JournalOp;
import io.tickwheel.durable.internal.JournalStoreCore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The embedded {@link TimerStore}: an append-only journal in segment files in one directory, which
 * needs no server and survives {@code kill -9}.
 *
 * <ul>
 *   <li><b>Records.</b> Each schedule, cancel, retry, finished run and failure is one record with a
 *       length, a CRC32C and the timeout's fields, appended to the current segment file (a header with
 *       magic and format version opens each file; an unknown version is refused). A compacted segment
 *       also opens with the highest version given so far, so versions keep growing across restarts.</li>
 *   <li><b>Group commit.</b> One writer thread takes every op callers have queued, writes them with one
 *       write and one {@code force}, then completes all their futures: concurrent callers share a
 *       {@code force}, a lone caller is written at once. With {@code fsync} on, the segment written
 *       to is preallocated with zeros a chunk at a time, so a batch's {@code force} flushes data
 *       only, not a new file size.</li>
 *   <li><b>Recovery</b> (in {@link #open(Sink, Clock)}): every record is verified; a torn tail (a crash
 *       mid-write: a partial record followed by nothing but zeros or the end of the file) is cut off; a
 *       bad record followed by anything else stops the open with an error naming the file and offset.
 *       Never skipped.</li>
 *   <li><b>Memory.</b> Only timeouts due within ten seconds are delivered to the timer's wheel; the rest
 *       stay on disk, with about 55 bytes each of in-memory index (key hash, location, version,
 *       deadline), so a process can hold many more pending timeouts than it could hold as wheel nodes.</li>
 *   <li><b>Compaction</b> rewrites the needed records into a new segment and deletes the old ones once
 *       the journal is more than twice what is needed, so disk use follows the pending set.</li>
 *   <li><b>One process.</b> The directory is locked; a second open (another process or this one) fails
 *       with {@link IllegalStateException}.</li>
 * </ul>
 *
 * <p>Dependent actions added to a future returned by {@link #schedule}, {@link #cancel} (or by
 * {@code DurableTimer}'s async methods) without an {@code *Async} method run on the writer thread:
 * keep them short, or every caller waits.
 *
 * <p>Threading: thread-safe (the state is guarded by one lock; disk writes belong to the writer
 * thread; see {@link GroupCommitWriter}).
 */
public final class JournalStore implements TimerStore {

    private final JournalStoreCore core;

    private JournalStore(final JournalStoreCore core) {
        this.core = core;
    }

    /**
     * Opens a journal directory with the defaults ({@code builder(directory).build()}).
     *
     * @param directory the journal's directory (created if missing)
     * @return the store, locked for this process
     * @throws IllegalStateException if another process or store holds the directory
     */
    public static JournalStore open(final Path directory) {
        return builder(directory).build();
    }

    /**
     * Starts configuring a journal store.
     *
     * @param directory the journal's directory (created if missing)
     * @return a builder
     */
    public static Builder builder(final Path directory) {
        return new Builder(Objects.requireNonNull(directory, "directory"));
    }

    @Override
    public int maxPayloadBytes() {
        return core.maxPayloadBytes();
    }

    @Override
    public void open(final Sink sink, final Clock clock) {
        core.open(Objects.requireNonNull(sink, "sink"), Objects.requireNonNull(clock, "clock"));
    }

    @Override
    public CompletableFuture<StoredTimeout> schedule(final String type, final String key, final byte[] payload,
            final Instant deadline) {
        return core.submit(JournalOp.schedule(type, key, payload.clone(), deadline))
                .thenApply(o -> (StoredTimeout) o);
    }

    @Override
    public CompletableFuture<Boolean> cancel(final String type, final String key) {
        return core.submit(JournalOp.cancel(type, key)).thenApply(o -> (Boolean) o);
    }

    @Override
    public Optional<StoredTimeout> find(final String type, final String key) {
        return core.find(type, key);
    }

    @Override
    public long pendingTimeouts() {
        return core.pendingTimeouts();
    }

    @Override
    public List<StoredTimeout> failed() {
        return core.failed();
    }

    @Override
    public boolean retryFailed(final String type, final String key, final Instant deadline) {
        return (Boolean) Joins.join(core.submit(JournalOp.retryFailed(type, key, deadline)));
    }

    @Override
    public boolean claim(final StoredTimeout timeout) {
        return core.claim(timeout);
    }

    @Override
    public CompletableFuture<Void> done(final StoredTimeout timeout) {
        return core.submit(JournalOp.outcome(JournalOp.Kind.DONE, timeout, null, null)).thenApply(o -> null);
    }

    @Override
    public CompletableFuture<StoredTimeout> retry(final StoredTimeout timeout, final Instant nextDeadline) {
        return core.submit(JournalOp.outcome(JournalOp.Kind.RETRY, timeout, nextDeadline, null))
                .thenApply(o -> (StoredTimeout) o);
    }

    @Override
    public CompletableFuture<Void> fail(final StoredTimeout timeout, final String reason) {
        return core.submit(JournalOp.outcome(JournalOp.Kind.FAIL, timeout, null, reason)).thenApply(o -> null);
    }

    /**
     * How many {@code force} calls (batches) the writer has made: with {@link #recordsWritten()}, the
     * records per force of group commit. For monitoring and benchmarks.
     *
     * @return the count since open
     */
    public long forces() {
        return core.writer().forces();
    }

    /**
     * How many records the writer has written.
     *
     * @return the count since open
     */
    public long recordsWritten() {
        return core.writer().records();
    }

    /**
     * The bytes the journal's segment files take now, the zeros preallocated ahead of the records
     * included ({@link #preallocatedBytes()}).
     *
     * @return bytes on disk
     */
    public long diskBytes() {
        return core.diskBytes();
    }

    /**
     * The zeros written ahead of the records in the segment being appended to, part of
     * {@link #diskBytes()}: with {@code fsync} on, the segment is extended a chunk (up to 1 MiB) at
     * a time, so that each batch's {@code force} has only data to flush.
     *
     * @return bytes
     */
    public long preallocatedBytes() {
        return core.preallocatedBytes();
    }

    /** Test seam: see {@link JournalStoreCore#maintenanceCounts()}. */
    long[] maintenanceCounts() {
        return core.maintenanceCounts();
    }

    /** Test seam: see {@link JournalStoreCore#released()}. */
    boolean released() {
        return core.released();
    }

    /**
     * Stops the store's threads, writing what is queued first, and releases the directory. A thread
     * still busy after 30 s (a write or force that hangs, a long compaction) is left to finish: its
     * ops still complete, done or failed, and the directory stays locked until it is done, so that
     * nothing a new store opened on it would read is changed under it. Called from a stage chained to
     * a future (on the writer thread), it returns without waiting: the writer writes what was queued
     * once the stage returns, then ends and releases the directory. Called on an interrupted thread,
     * it still waits for the threads (up to the same bound) and returns with the interrupt still set.
     */
    @Override
    public void close() {
        core.close();
    }

    @Override
    public String toString() {
        return "JournalStore(" + core + ")";
    }

    /**
     * Configures a {@link JournalStore}.
     *
     * <p>Threading: not thread-safe; confined to the thread that builds.
     */
    public static final class Builder {
        private final Path directory;
        private boolean fsync = true;
        private int maxPayloadBytes = 1 << 20;
        private ChannelFactory channels = ChannelFactory.DEFAULT;
        private long segmentBytes = 64L << 20;
        private long compactMinBytes = 64L << 20;
        private int maxDelivered = 100_000;
        private long closeWaitMillis = 30_000;
        private Consumer<Thread> threadStarter = Thread::start;
        private Runnable afterLock = () -> { };

        private Builder(final Path directory) {
            this.directory = directory;
        }

        /**
         * Whether each batch is forced to stable storage before it is acknowledged.
         *
         * @param fsync true (the default): acknowledged means on stable storage; false: acknowledged means
         *              handed to the OS, so a process crash loses nothing but a power loss may
         * @return this builder
         */
        public Builder fsync(final boolean fsync) {
            this.fsync = fsync;
            return this;
        }

        /**
         * The largest payload accepted.
         *
         * @param bytes 0 to 8 MiB (default 1 MiB)
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxPayloadBytes(final int bytes) {
            if (bytes < 0 || bytes > 8 << 20) {
                throw new IllegalArgumentException("maxPayloadBytes: " + bytes + " (expected: 0 <= maxPayloadBytes <= "
                        + (8 << 20) + ")");
            }
            this.maxPayloadBytes = bytes;
            return this;
        }

        /** Test seam: how file channels are opened (a failing disk). */
        Builder channelFactory(final ChannelFactory factory) {
            this.channels = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /** Test seam: segment size and compaction threshold, small so tests roll and compact. */
        Builder segments(final long segmentSize, final long compactMin) {
            this.segmentBytes = segmentSize;
            this.compactMinBytes = compactMin;
            return this;
        }

        /** Test seam: how long close waits for each of the store's threads before leaving the rest to them. */
        Builder closeWait(final Duration wait) {
            this.closeWaitMillis = wait.toMillis();
            return this;
        }

        /** Test seam: how the store's writer and scanner threads are started (a JVM out of threads). */
        Builder threadStarter(final Consumer<Thread> starter) {
            this.threadStarter = Objects.requireNonNull(starter, "starter");
            return this;
        }

        /** Test seam: runs once the directory is locked, before the store is built (an Error there). */
        Builder afterLock(final Runnable seam) {
            this.afterLock = Objects.requireNonNull(seam, "seam");
            return this;
        }

        /** Test seam: the most timeouts held by the timer at once. */
        Builder maxDelivered(final int max) {
            this.maxDelivered = max;
            return this;
        }

        /**
         * Locks the directory. Recovery runs when the timer opens the store.
         *
         * @return the store
         * @throws IllegalStateException       if another process, or another store in this JVM, holds it
         * @throws java.io.UncheckedIOException if the directory cannot be created or locked
         */
        public JournalStore build() {
            JournalStoreCore core = new JournalStoreCore(directory, fsync, maxPayloadBytes, channels, segmentBytes,
                    compactMinBytes, maxDelivered, DueScanner.LOOKAHEAD_MILLIS, afterLock);
            boolean built = false;
            try {
                core.closeWait(closeWaitMillis);
                core.threadStarter(threadStarter);
                JournalStore store = new JournalStore(core);
                built = true;
                return store;
            } finally {
                if (!built) {
                    core.close(); // out of memory for the store itself: nobody could close it, so release it now
                }
            }
        }
    }
}
