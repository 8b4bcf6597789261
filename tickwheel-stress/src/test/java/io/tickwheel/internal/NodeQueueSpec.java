package io.tickwheel.internal;

import java.util.ArrayDeque;
import java.util.Queue;

/**
 * The sequential behaviour {@link NodeQueue} must be linearizable to, for
 * {@link NodeQueueLincheckTest}: a FIFO queue whose {@code offer} returns the count of earlier
 * offers. Method names and signatures match the test's operations, which is how lincheck pairs
 * them.
 *
 * <p>Threading: not thread-safe; lincheck runs it on one thread.
 */
public final class NodeQueueSpec {

    private final Queue<Long> ids = new ArrayDeque<>();
    private long produced;
    private long consumed;

    /**
     * Appends {@code id}.
     *
     * @param id the node's identity
     * @return the count of earlier offers
     */
    public long offer(final int id) {
        ids.add((long) id);
        return produced++;
    }

    /**
     * Removes the oldest id.
     *
     * @return the id, or null if empty
     */
    public Long poll() {
        Long id = ids.poll();
        if (id != null) {
            consumed++;
        }
        return id;
    }

    /**
     * Returns whether the queue is empty.
     *
     * @return whether empty
     */
    public boolean isEmpty() {
        return ids.isEmpty();
    }

    /**
     * Returns the count of offers.
     *
     * @return the produced count
     */
    public long producedCount() {
        return produced;
    }

    /**
     * Returns the count of polled ids.
     *
     * @return the consumed count
     */
    public long consumedCount() {
        return consumed;
    }
}
