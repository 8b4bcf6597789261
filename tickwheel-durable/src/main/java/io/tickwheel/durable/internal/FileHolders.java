package io.tickwheel.durable.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who still uses a journal's files: the store until it closes, and each of its threads (writer,
 * scanner, compactor) until it ends. The last to let go closes them, which releases the directory's
 * lock. A close that stops waiting for a thread (a force that hangs, a compaction that takes longer
 * than the close's wait) thus leaves the files open and the directory locked until that thread is
 * done: nothing is closed, cut or deleted under it, and no new store can open the directory and find
 * a failed op's records there, or lose segments that the old compactor then deletes.
 *
 * <p>Threading: thread-safe (an atomic count; closing happens once, under the store's lock).
 */
final class FileHolders {

    /** Closes the files and releases the directory's lock ({@link SegmentFiles#close}; a counting fake in jcstress). */
    private final Runnable closeFiles;
    private final Object lock;
    /** Starts at 1: the store's own hold, let go by its close. */
    private final AtomicInteger holders = new AtomicInteger(1);

    FileHolders(final Runnable closeFiles, final Object lock) {
        this.closeFiles = closeFiles;
        this.lock = lock;
    }

    /** A thread that will use the files, before it is started (let go if its start throws). */
    void hold() {
        holders.incrementAndGet();
    }

    /** One holder is done; the last one closes the files. */
    void letGo() {
        if (holders.decrementAndGet() == 0) {
            synchronized (lock) {
                closeFiles.run();
            }
        }
    }

    /** Whether everyone let go, so the files are closed; for tests. */
    boolean released() {
        return holders.get() == 0;
    }
}
