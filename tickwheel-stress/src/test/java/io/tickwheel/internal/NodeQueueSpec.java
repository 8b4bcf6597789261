package io.tickwheel.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
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

    /** The test's chunk size. */
    private static final int CHUNK = 2;

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
     * Removes the oldest ids, up to {@code max} and not past the end of the chunk the next one is
     * in (chunks of 2, as in the test).
     *
     * @param max the most to remove
     * @return the ids, in order
     */
    public List<Long> pollBatch(final int max) {
        int chunkRest = CHUNK - (int) (consumed % CHUNK);
        int count = Math.min(Math.min(max, ids.size()), chunkRest);
        List<Long> taken = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            taken.add(ids.poll());
            consumed++;
        }
        return taken;
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
