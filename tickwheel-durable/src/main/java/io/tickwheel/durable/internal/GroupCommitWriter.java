package io.tickwheel.durable.internal;

import io.tickwheel.durable.TimerStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

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
 * batch began (retried before the next batch, and at close, if the cut fails too), so a failed op
 * never surfaces later (docs/FAULTS.md says when it still can). The user's clock is read before the
 * write, so its exception fails the batch the same way. The writer never dies of a failure, whatever
 * the Throwable, and never leaves a future pending: the next batch tries the disk again.
 *
 * <p>Threading: {@link #submit} and {@link #close} are thread-safe; everything else runs on the
 * writer thread. Hand-off: an {@link OpHandoff}, which takes no lock (its add happens-before the poll
 * that returns the op); completing an op's future publishes the result back to the caller.
 */
public final class GroupCommitWriter {

    /** The most ops in one batch (one write and one force). */
    static final int MAX_BATCH = 8192;

    private static final System.Logger LOG = System.getLogger(GroupCommitWriter.class.getName());
    /** The stop signal; package-private for jcstress ({@code FailQueuedVsWriterStop}). */
    static final JournalOp POISON = JournalOp.cancel("poison", "poison");

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
    private final OpHandoff queue;
    private final Thread thread;
    /** Run by the writer thread as it ends, whatever ended it: lets go of the files. */
    private final Runnable onExit;
    private final List<JournalOp> batch = new ArrayList<>();
    private final SinkCalls sinkCalls = new SinkCalls();
    private final AtomicLong forces = new AtomicLong();
    private final AtomicLong records = new AtomicLong();
    private ByteBuffer buf = RecordCodec.buffer(1 << 20);
    private volatile boolean closed;
    private long dirtySize = -1;
    /** Whether the current batch's force returned (its ops are durable, whatever happens next). */
    private boolean batchDurable;

    /**
     * Creates the writer; {@link #start} starts it.
     *
     * @param core  the state (also the lock)
     * @param files the segments, with an active segment open
     * @param fsync whether to force after each batch
     * @param host  the store
     * @param name  the thread's name
     * @param onExit run by the thread as it ends (not if it never starts)
     */
    public GroupCommitWriter(final JournalCore core, final SegmentFiles files, final boolean fsync, final Host host,
            final String name, final Runnable onExit) {
        this.onExit = onExit;
        this.core = core;
        this.files = files;
        this.fsync = fsync;
        this.host = host;
        this.thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        this.queue = new OpHandoff(thread);
    }

    /**
     * Starts the writer thread, once.
     *
     * @param starter starts a thread ({@code Thread::start}; tests inject a failure)
     */
    public void start(final Consumer<Thread> starter) {
        starter.accept(thread);
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
            failQueued(queue);
        }
    }

    private void loop() {
        try {
            while (true) {
                JournalOp first = queue.next();
                if (first == POISON) {
                    return;
                }
                boolean stop = false;
                try {
                    batch.add(first);
                    queue.drainTo(batch, MAX_BATCH - 1);
                    stop = batch.remove(POISON);
                    writeBatch();
                } catch (Throwable e) { // last resort: writeBatch completes every future itself
                    stop = stop || batch.contains(POISON);
                    failBatch(e);
                } finally {
                    batch.clear();
                    batchDurable = false;
                }
                if (stop) {
                    return;
                }
                maintain();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                cutBackOnClose();
            } finally {
                closed = true;
                try {
                    failQueued(queue);
                } finally {
                    onExit.run();
                }
            }
        }
    }

    /** The roll and compaction decisions; any Throwable (an Error from a channel open or a thread start too). */
    private void maintain() {
        try {
            // Not while a failed batch's cut-back is pending: a roll or compaction would switch
            // segments, and the pending cut would then pad the new segment up to the old offset.
            if (dirtySize < 0) {
                host.afterBatch();
            }
        } catch (Throwable e) {
            warn("journal maintenance failed; will retry after the next batch", e);
        }
    }

    /**
     * On the way out, a failed batch's cut-back that is still pending is tried once more (the next
     * batch would have done it): without it a clean close left the failed batch's records in the
     * segment, and the next open brought the failed ops back. If the disk still refuses, the records
     * are the tail of the last segment from {@code dirtySize} on; the ERROR says where, so that the file
     * can be cut there before the journal is opened again (docs/FAULTS.md).
     */
    private void cutBackOnClose() {
        if (dirtySize < 0) {
            return;
        }
        try {
            files.cutBack(dirtySize);
            dirtySize = -1;
        } catch (Throwable e) {
            try {
                LOG.log(Level.ERROR, "cannot cut the journal back after a failed write, at close either: segment "
                        + files.activeNumber() + " holds the records of failed (never acknowledged) ops from offset "
                        + dirtySize + " on, and the next open replays them unless that file is cut there first", e);
            } catch (Throwable ignored) {
                // a broken logging backend; nothing more to do
            }
        }
    }

    private void writeBatch() {
        Throwable failure = null;
        long start = files.activeSize();
        long horizon = Long.MIN_VALUE;
        int written = 0;
        try {
            // The user's clock, read before anything is written: if it throws, the batch fails as for
            // a disk error, with nothing written or applied. Read after the force, its exception would
            // strike a batch that is already durable (and before, it killed the writer there).
            horizon = host.horizonMillis();
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
            batchDurable = true;
        } catch (IOException e) {
            failure = new UncheckedIOException("journal write failed: " + e.getMessage(), e);
        } catch (Throwable e) {
            // Any other exception or Error (the clock, an OutOfMemoryError while encoding or writing)
            // before the force returned: the batch is not known to be durable, so it fails, and its
            // bytes are cut back exactly as after a failed write.
            failure = e;
        }
        if (failure != null) {
            cutBack(start);
        }
        finish(failure, start, horizon);
    }

    /**
     * Applies a durable batch (or lifts a failed one's overlay and dooms), makes the sink calls, and
     * completes every future. Nothing in here may leave a future pending: each step is guarded.
     */
    private void finish(final Throwable failure, final long start, final long horizon) {
        boolean ok = failure == null;
        long segment = files.activeNumber();
        IdentityHashMap<JournalOp, Throwable> notApplied = null;
        synchronized (core) {
            try {
                if (ok) {
                    for (JournalOp op : batch) {
                        try {
                            core.apply(op, JournalLocation.of(segment, start + op.recordStart), horizon, sinkCalls);
                        } catch (Throwable e) {
                            if (notApplied == null) {
                                notApplied = new IdentityHashMap<>();
                            }
                            notApplied.put(op, e);
                        }
                    }
                }
            } finally {
                core.endBatch(!ok);
            }
        }
        try {
            TimerStore.Sink sink = host.sink();
            if (sink != null) {
                sinkCalls.run(sink, core);
            }
        } catch (Throwable e) {
            warn("the journal's sink calls failed; the writer goes on", e);
        }
        for (JournalOp op : batch) {
            Throwable e = ok ? notApplied == null ? null : notApplied.get(op) : failure;
            op.complete(e != null && ok ? op.durableButNotApplied(e) : e);
        }
    }

    /** Fails every op of the batch not completed yet (a Throwable escaped {@link #writeBatch}). */
    private void failBatch(final Throwable e) {
        try {
            synchronized (core) { // again if finish did it already: endBatch then finds nothing to do
                core.endBatch(!batchDurable);
            }
        } catch (Throwable again) {
            e.addSuppressed(again);
        }
        for (JournalOp op : batch) {
            op.complete(batchDurable ? op.durableButNotApplied(e) : e);
        }
        warn("the journal writer failed on a batch; its unfinished ops fail, the writer goes on", e);
    }

    private static void warn(final String message, final Throwable e) {
        QuietLog.log(LOG, Level.WARNING, message, e);
    }

    private void cutBack(final long start) {
        try {
            files.cutBack(start);
        } catch (Throwable again) {
            dirtySize = start;
            warn("cannot cut the journal back after a failed write; retrying before the next batch and at close",
                    again);
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

    /**
     * Fails what is queued; a {@code POISON} taken with it goes back, so a busy writer still ends.
     * It goes back through {@link OpHandoff#add}, which wakes the writer: the writer may have found the
     * queue empty while we held the POISON and gone to sleep, for a second, before it ends.
     */
    static void failQueued(final OpHandoff handoff) {
        for (JournalOp op : handoff.takeAll()) {
            if (op == POISON) {
                handoff.add(POISON);
            } else {
                op.future.completeExceptionally(new IllegalStateException("the journal is closed"));
            }
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
     * A writer still busy after the wait (a force that hangs) finishes its batch, completing its ops,
     * and then ends: what is still queued fails now and is never written.
     *
     * <p>Called on the writer thread itself (from a stage chained to an op's future), it does not
     * wait: the writer would wait for itself for the whole timeout, every caller with it, and then
     * fail what was queued before the close. Once the stage returns, the writer writes what is
     * queued ahead of the stop signal and ends; what arrives after it fails.
     *
     * @param timeoutMillis how long to wait for the writer; an interrupt does not cut it short ({@link Joins#await})
     * @return whether the writer thread has ended (false at once on the writer thread)
     */
    public boolean close(final long timeoutMillis) {
        queue.add(POISON);
        if (isWriterThread()) {
            return false;
        }
        Joins.await(thread, timeoutMillis);
        closed = true;
        failQueued(queue);
        return !thread.isAlive();
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
