package io.tickwheel.durable.internal;

import io.tickwheel.durable.TimerStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Group commit: the one thread that writes the journal. Callers {@link #submit} ops into a queue; the
 * writer takes the first waiting op (so a lone caller never waits for a batch to fill), drains every
 * other op already queued (up to {@value #MAX_BATCH}), decides them against the state under the
 * store's lock, writes their records with one write, calls {@code force} once, applies them to the
 * state, makes the sink calls, and completes every op's future. Many concurrent callers thus share
 * one {@code force}: the batch is whatever arrived while the previous force ran.
 *
 * <p>If the write or the force fails, every op of the batch fails with an
 * {@link UncheckedIOException}, nothing of it is applied, and the segment is cut back to where the
 * batch began (retried before the next batch if the cut fails too), so a failed op never surfaces
 * later. The writer never dies of a failure: the next batch tries the disk again.
 *
 * <p>Threading: {@link #submit} and {@link #close} are thread-safe; everything else runs on the
 * writer thread. Hand-off: a {@code LinkedBlockingQueue} (its put happens-before the take that
 * returns the op); completing an op's future publishes the result back to the caller.
 */
public final class GroupCommitWriter {

    /** The most ops in one batch (one write and one force). */
    static final int MAX_BATCH = 8192;

    private static final System.Logger LOG = System.getLogger(GroupCommitWriter.class.getName());
    private static final JournalOp POISON = JournalOp.cancel("poison", "poison");

    /** What the writer needs from its store. */
    public interface Host {
        /**
         * The deadline (epoch ms) up to which a new timeout is delivered at once.
         *
         * @return ms, or {@code Long.MIN_VALUE} before the store is open
         */
        long horizonMillis();

        /**
         * The sink, or null before the store is open.
         *
         * @return the sink
         */
        TimerStore.Sink sink();

        /** Runs on the writer thread after each batch: segment roll and compaction decisions. */
        void afterBatch();
    }

    private final JournalCore core;
    private final SegmentFiles files;
    private final boolean fsync;
    private final Host host;
    private final LinkedBlockingQueue<JournalOp> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final List<JournalOp> batch = new ArrayList<>();
    private final SinkCalls sinkCalls = new SinkCalls();
    private final AtomicLong forces = new AtomicLong();
    private final AtomicLong records = new AtomicLong();
    private ByteBuffer buf = RecordCodec.buffer(1 << 20);
    private volatile boolean closed;
    private long dirtySize = -1;

    /**
     * Creates and starts the writer.
     *
     * @param core  the state (also the lock)
     * @param files the segments, with an active segment open
     * @param fsync whether to force after each batch
     * @param host  the store
     * @param name  the thread's name
     */
    public GroupCommitWriter(final JournalCore core, final SegmentFiles files, final boolean fsync, final Host host,
            final String name) {
        this.core = core;
        this.files = files;
        this.fsync = fsync;
        this.host = host;
        this.thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Hands an op to the writer.
     *
     * @param op the op; its future completes once it is durable, or fails
     */
    public void submit(final JournalOp op) {
        if (closed) {
            op.future.completeExceptionally(new IllegalStateException("the journal is closed"));
            return;
        }
        queue.add(op);
        if (closed) {
            failQueued();
        }
    }

    private void loop() {
        try {
            while (true) {
                JournalOp first = queue.take();
                if (first == POISON) {
                    return;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                boolean stop = batch.remove(POISON);
                writeBatch();
                batch.clear();
                if (stop) {
                    return;
                }
                try {
                    // Not while a failed batch's cut-back is pending: a roll or compaction would switch
                    // segments, and the pending cut would then pad the new segment up to the old offset.
                    if (dirtySize < 0) {
                        host.afterBatch();
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "journal maintenance failed; will retry after the next batch", e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closed = true;
            failQueued();
        }
    }

    private void writeBatch() {
        boolean ok = false;
        Throwable failure = null;
        long start = files.activeSize();
        int written = 0;
        try {
            buf.clear();
            synchronized (core) {
                for (JournalOp op : batch) {
                    ensure(core.maxSize(op));
                    core.decide(op, buf);
                    written += op.recordStart >= 0 ? 1 : 0;
                }
            }
            buf.flip();
            if (dirtySize >= 0) {
                files.cutBack(dirtySize);
                dirtySize = -1;
                start = files.activeSize();
            }
            if (buf.hasRemaining()) {
                files.append(buf);
                if (fsync) {
                    files.force();
                }
                forces.incrementAndGet();
                records.addAndGet(written);
            }
            ok = true;
        } catch (IOException e) {
            failure = new UncheckedIOException("journal write failed: " + e.getMessage(), e);
            cutBack(start);
        } catch (RuntimeException | Error e) {
            failure = e;
            cutBack(start);
        }
        finish(ok, failure, start);
    }

    private void finish(final boolean ok, final Throwable failure, final long start) {
        long segment = files.activeNumber();
        synchronized (core) {
            if (ok) {
                long horizon = host.horizonMillis();
                for (JournalOp op : batch) {
                    core.apply(op, JournalLocation.of(segment, start + op.recordStart), horizon, sinkCalls);
                }
            }
            core.endBatch(!ok);
        }
        TimerStore.Sink sink = host.sink();
        if (sink != null) {
            sinkCalls.run(sink);
        }
        for (JournalOp op : batch) {
            if (ok) {
                op.future.complete(op.result);
            } else {
                op.future.completeExceptionally(failure);
            }
        }
    }

    private void cutBack(final long start) {
        try {
            files.cutBack(start);
        } catch (IOException | RuntimeException again) {
            dirtySize = start;
            LOG.log(Level.WARNING, "cannot cut the journal back after a failed write; retrying before the next", again);
        }
    }

    private void ensure(final int more) {
        if (buf.remaining() < more) {
            ByteBuffer bigger = RecordCodec.buffer(Math.max(buf.capacity() * 2, buf.position() + more));
            buf.flip();
            bigger.put(buf);
            buf = bigger;
        }
    }

    private void failQueued() {
        List<JournalOp> rest = new ArrayList<>();
        queue.drainTo(rest);
        for (JournalOp op : rest) {
            op.future.completeExceptionally(new IllegalStateException("the journal is closed"));
        }
    }

    /**
     * Forces written so far (monitoring).
     *
     * @return the count
     */
    public long forces() {
        return forces.get();
    }

    /**
     * Records written so far (monitoring).
     *
     * @return the count
     */
    public long records() {
        return records.get();
    }

    /**
     * Writes what is queued, stops the thread and fails whatever arrives later.
     *
     * @param timeoutMillis how long to wait for the writer
     * @throws InterruptedException if interrupted while waiting
     */
    public void close(final long timeoutMillis) throws InterruptedException {
        queue.add(POISON);
        thread.join(timeoutMillis);
        closed = true;
        failQueued();
    }

    /**
     * Whether the calling thread is the writer (sink calls come from it).
     *
     * @return true on the writer thread
     */
    public boolean isWriterThread() {
        return Thread.currentThread() == thread;
    }
}
