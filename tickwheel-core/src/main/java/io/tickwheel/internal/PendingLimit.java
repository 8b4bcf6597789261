package io.tickwheel.internal;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The optional cap on pending timeouts, checked by the hand-off queue right before it claims an
 * index for a new node ({@link NodeQueue#offer(TimeoutNode, PendingLimit)}). There is no permit to
 * take and give back: the pending count is the core's own, scheduled (the queue index about to be
 * claimed) minus retired minus cancelled, and the claim is a CAS on exactly the index the check
 * read. So the count a check sees can only be too high (a retire or cancel counted after the reads),
 * never too low, and the limit is never exceeded; a refused call claims nothing and changes
 * nothing; and an Error anywhere cannot leak a permit, because nothing is held across a call. A
 * permit counter would have to be given back when the offer after it fails, and that give-back is
 * itself a call a StackOverflowError can strike. Without a cap no instance exists and the schedule
 * path pays nothing for it.
 *
 * <p>Threading: thread-safe (reads only: the retired cell with acquire, the cancel cells volatile,
 * all monotonic, so their sum read one by one is at most the true count; see {@code HandOff} for
 * who writes them).
 */
final class PendingLimit {

    private final long max;
    private final PaddedLongs counters;
    private final int retiredCell;
    private final int cancelledCell;
    private final int cancelledCells;
    /** Refused calls; written only on the refusal path, so an accepted schedule pays nothing. */
    private final AtomicLong rejected = new AtomicLong();

    private PendingLimit(final long max, final PaddedLongs counters, final int retiredCell, final int cancelledCell,
            final int cancelledCells) {
        this.max = max;
        this.counters = counters;
        this.retiredCell = retiredCell;
        this.cancelledCell = cancelledCell;
        this.cancelledCells = cancelledCells;
    }

    /**
     * Returns a limit over the engine's counters, or null when {@code max} is 0 or less (no limit).
     *
     * @param max the most pending timeouts
     * @param counters the engine's cells
     * @param retiredCell the cell of timeouts the worker retired (release by the worker)
     * @param cancelledCell the first cell of cancelled timeouts (atomic add by cancellers)
     * @param cancelledCells how many cells from {@code cancelledCell} on count cancels
     */
    static PendingLimit of(final long max, final PaddedLongs counters, final int retiredCell, final int cancelledCell,
            final int cancelledCells) {
        return max > 0 ? new PendingLimit(max, counters, retiredCell, cancelledCell, cancelledCells) : null;
    }

    /**
     * Throws if one more timeout would exceed the limit, given that {@code scheduled} timeouts were
     * scheduled before it; called before the claim, so nothing is held whatever it throws.
     *
     * @param scheduled the queue index the caller is about to claim
     * @throws RejectedExecutionException if the limit is reached
     */
    void checkBeforeClaim(final long scheduled) {
        long cancelled = 0;
        for (int i = 0; i < cancelledCells; i++) {
            cancelled += counters.getVolatile(cancelledCell + i);
        }
        long pending = scheduled - counters.getAcquire(retiredCell) - cancelled;
        if (pending >= max) {
            rejected.incrementAndGet();
            throw new RejectedExecutionException("Number of pending timeouts (" + (pending + 1)
                    + ") is greater than or equal to maximum allowed pending timeouts (" + max + ")");
        }
    }

    long rejected() {
        return rejected.get();
    }
}
