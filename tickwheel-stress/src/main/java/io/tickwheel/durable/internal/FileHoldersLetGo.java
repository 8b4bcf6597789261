package io.tickwheel.durable.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: a journal store's files and its directory lock are held by the store until it closes and
 * by each of its threads (writer, scanner, a compactor) until it ends; {@link FileHolders} lets the
 * last to let go close them. A close that gave up waiting for a hung force or a long compaction lets
 * go while that thread still runs, and the thread ends just then. A let-go the count loses leaves the
 * files open and the directory locked until the process exits; two let-gos that both see zero close
 * the files twice; a close with a holder left pulls the files from under a compactor still rewriting
 * segments, and lets a new store open the directory under it.
 *
 * <p>The files are a counting fake of {@link SegmentFiles#close} (which closes the channels and
 * releases the directory's lock in one call), given to {@link FileHolders}' constructor. It records
 * how many holders had not begun to let go when it ran, and whether it ran under the store's lock.
 *
 * <p>Result: r1 = closes (each one also the lock's release), r2 = holders that had not let go when
 * the files were closed, r3 = the close ran under the store's lock (1/0), r4 = {@code released()}.
 */
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "closed once, by the last to let go, under the store's lock")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "never closed: the directory stays locked until the process exits")
@Outcome(expect = FORBIDDEN, desc = "closed twice, or while a holder still held the files")
public abstract class FileHoldersLetGo {

    private final Object storeLock = new Object();
    private final AtomicInteger closes = new AtomicInteger();
    private final AtomicInteger lettingGo = new AtomicInteger();
    private final AtomicInteger pendingAtClose = new AtomicInteger();
    private final AtomicInteger underLock = new AtomicInteger(1);
    private final int holdersInAll;
    /** The class under test. */
    final FileHolders holders;

    /**
     * The store's own hold plus {@code heldAtStart - 1} threads' holds.
     *
     * @param holdersInAll every holder the test lets go, including any that holds only later
     * @param heldAtStart  holds taken before the actors run, the store's included
     */
    FileHoldersLetGo(final int holdersInAll, final int heldAtStart) {
        this.holdersInAll = holdersInAll;
        this.holders = new FileHolders(this::closeFiles, storeLock);
        for (int i = 1; i < heldAtStart; i++) {
            holders.hold();
        }
    }

    private void closeFiles() {
        closes.incrementAndGet();
        pendingAtClose.accumulateAndGet(holdersInAll - lettingGo.get(), Math::max);
        if (!Thread.holdsLock(storeLock)) {
            underLock.set(0);
        }
    }

    /** One holder lets go; counted first, so a close that runs before every holder did shows. */
    final void letGo() {
        lettingGo.incrementAndGet();
        holders.letGo();
    }

    final void report(final IIII_Result r) {
        r.r1 = closes.get();
        r.r2 = pendingAtClose.get();
        r.r3 = underLock.get();
        r.r4 = holders.released() ? 1 : 0;
    }

    /** A close that stopped waiting and the writer, the last two holders, let go at once. */
    @JCStressTest
    @State
    public static class CloseVsWriterEnd extends FileHoldersLetGo {

        /** The store and its writer hold the files; the scanner has ended. */
        public CloseVsWriterEnd() {
            super(2, 2);
        }

        /** The store's close, done waiting. */
        @Actor
        public void storeClose() {
            letGo();
        }

        /** The writer thread ends (its {@code onExit}). */
        @Actor
        public void writerEnds() {
            letGo();
        }

        /**
         * Reads the fake's counts.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIII_Result r) {
            report(r);
        }
    }

    /**
     * The close and a compactor let go at once while the writer still holds the files: they must
     * stay open until the writer ends (the arbiter).
     */
    @JCStressTest
    @State
    public static class CloseVsCompactorEnd extends FileHoldersLetGo {

        /** The store, its writer and a compactor hold the files; the scanner has ended. */
        public CloseVsCompactorEnd() {
            super(3, 3);
        }

        /** The store's close, done waiting. */
        @Actor
        public void storeClose() {
            letGo();
        }

        /** The compactor thread ends. */
        @Actor
        public void compactorEnds() {
            letGo();
        }

        /**
         * The writer ends, then reads the fake's counts.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIII_Result r) {
            letGo();
            report(r);
        }
    }

    /**
     * The writer starts a compactor (its hold) and then ends, while the store's close lets go; the
     * compactor ends last (the arbiter). Its hold must count even when it lands amid the let-gos, or
     * the files close under it (or, with a hold counted twice, never).
     */
    @JCStressTest
    @State
    public static class CloseVsCompactorStart extends FileHoldersLetGo {

        /** The store and its writer hold the files; a compactor will. */
        public CloseVsCompactorStart() {
            super(3, 2);
        }

        /** The store's close, done waiting. */
        @Actor
        public void storeClose() {
            letGo();
        }

        /** The writer's last batch starts a compactor ({@code Maintenance.afterBatch}); then the writer ends. */
        @Actor
        public void writer() {
            holders.hold();
            letGo();
        }

        /**
         * The compactor ends, then reads the fake's counts.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIII_Result r) {
            letGo();
            report(r);
        }
    }
}
