package io.tickwheel.internal;

/**
 * The queues new nodes wait in, one per lane: a thread always offers into the lane its id picks,
 * so producers on different cores do not pass one queue's tail between them, and the worker,
 * the one consumer, reads them all. Thread ids are handed out in creation order, so the threads
 * of a pool, created one after another, get different lanes; a thread keeps its own order.
 *
 * <p>Threading: {@link #laneOf}, {@link #lane(int)}, {@link #producedCount()} and {@link #backlog()}
 * from any thread (offers go to {@code lane(i).offer}); {@link #poll()} and the lanes' {@code poll}
 * from the consumer only.
 */
final class NodeLanes {

    private final NodeQueue[] lanes;
    private final int mask;

    /**
     * Creates {@code count} empty lanes.
     *
     * @param count a power of two
     */
    NodeLanes(final int count) {
        if (count < 1 || Integer.bitCount(count) != 1) {
            throw new IllegalArgumentException("lane count must be a power of two: " + count);
        }
        lanes = new NodeQueue[count];
        int laneBits = Integer.numberOfTrailingZeros(count);
        for (int i = 0; i < count; i++) {
            lanes[i] = new NodeQueue(NodeQueue.CHUNK_SHIFT, i, laneBits);
        }
        mask = count - 1;
    }

    /**
     * Lanes by default: twice the processors, to a power of two, at least 4 (so that threads
     * whose ids are a few apart still differ) and at most 16 (each costs the worker a look per
     * pass and a 4 KiB chunk).
     *
     * @return the count
     */
    static int defaultCount() {
        int wanted = 2 * Runtime.getRuntime().availableProcessors();
        int powerOfTwo = Integer.highestOneBit(Math.max(1, wanted - 1)) << 1;
        return Math.max(4, Math.min(16, powerOfTwo));
    }

    /** How many lanes. */
    int count() {
        return lanes.length;
    }

    /** The lane of {@code thread}: by its id, so the same on every call. */
    int laneOf(final Thread thread) {
        // One lane (a pending limit): no call to getId(), which a Thread subclass may override, and
        // which the cancel path makes after its CAS, where a throw would lose the count for good.
        return mask == 0 ? 0 : (int) thread.getId() & mask;
    }

    /** The queue of lane {@code lane} (masked, so any int picks one). */
    NodeQueue lane(final int lane) {
        return lanes[lane & mask];
    }

    /**
     * Puts a tombstone in a cancelled node's slot if it is still queued (see {@link NodeQueue}).
     *
     * @param node the node whose cancel CAS the caller won
     * @param place its {@link TimeoutNode#place}, 0 if none
     */
    void tombstone(final Object node, final int place) {
        if (place != 0) {
            lanes[(place - 1) & mask].tombstone(node, place); // the lane is the place's low bits
        }
    }

    /** Every node ever offered: the sum of the lanes' producer indexes, each volatile. */
    long producedCount() {
        long sum = 0;
        for (NodeQueue lane : lanes) {
            sum += lane.producedCount();
        }
        return sum;
    }

    /** Nodes offered and not yet taken, over all lanes (a snapshot). */
    long backlog() {
        long sum = 0;
        for (NodeQueue lane : lanes) {
            sum += lane.producedCount() - lane.consumedCount();
        }
        return sum;
    }

    /** Takes the next node of the first lane that has one, or null when all are empty; consumer only. */
    TimeoutNode poll() {
        for (NodeQueue lane : lanes) {
            TimeoutNode node = lane.poll();
            if (node != null) {
                return node;
            }
        }
        return null;
    }
}
