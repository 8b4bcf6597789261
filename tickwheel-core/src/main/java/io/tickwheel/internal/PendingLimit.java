package io.tickwheel.internal;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The optional cap on pending timeouts. A permit is taken before a timeout is created and given
 * back by whichever thread ends it (the worker on expiry or stop, a canceller on cancel), so a
 * refused call changes nothing. Without a cap no instance exists and the schedule path pays
 * nothing for it.
 *
 * <p>Threading: thread-safe (via an atomic counter).
 */
final class PendingLimit {

    private final long max;
    private final AtomicLong taken = new AtomicLong();

    private PendingLimit(final long max) {
        this.max = max;
    }

    /** Returns a limit, or null when {@code max} is 0 or less (no limit). */
    static PendingLimit of(final long max) {
        return max > 0 ? new PendingLimit(max) : null;
    }

    void acquire() {
        long count = taken.incrementAndGet();
        if (count > max) {
            taken.decrementAndGet();
            throw new RejectedExecutionException("Number of pending timeouts (" + count
                    + ") is greater than or equal to maximum allowed pending timeouts (" + max + ")");
        }
    }

    void release() {
        taken.decrementAndGet();
    }
}
