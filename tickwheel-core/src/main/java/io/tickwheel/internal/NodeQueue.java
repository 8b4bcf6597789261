package io.tickwheel.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The hand-off from scheduling threads to the worker: an unbounded multi-producer,
 * single-consumer queue of nodes in linked fixed-size chunks.
 *
 * <p>A producer claims an index with one atomic add, then release-stores the node into that
 * index's slot. The claim is what orders producers; the release store publishes the node's
 * final fields to the consumer's acquire load of the slot. Because every offer claims the next
 * index, {@link #producedCount()} is also the number of nodes ever offered, which the core uses
 * as its "scheduled" counter at no extra cost.
 *
 * <p>A claimed slot may still be empty for a moment (its producer was descheduled between the
 * claim and the store); the consumer then waits for it, since the index order is the contract.
 *
 * <p>Threading: {@link #offer} is thread-safe (any producer); {@link #poll} and
 * {@link #isEmpty} are single consumer (the worker thread only).
 */
final class NodeQueue {

    /** Chunks of 1024 slots in production. */
    private static final int CHUNK_SHIFT = 10;
    private static final int SPINS_BEFORE_YIELD = 64;

    /** Cell written by every producer (atomic add). */
    private static final int PRODUCER = 0;
    /** Cell written by the consumer only (release), read by anyone for sizes. */
    private static final int CONSUMER = 1;

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(TimeoutNode[].class);
    private static final VarHandle NEXT;
    private static final VarHandle PRODUCER_CHUNK;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            NEXT = lookup.findVarHandle(Chunk.class, "next", Chunk.class);
            PRODUCER_CHUNK = lookup.findVarHandle(NodeQueue.class, "producerChunk", Chunk.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A run of {@code size} slots; chunk {@code number} holds indexes [number*size, (number+1)*size). */
    private static final class Chunk {
        final long number;
        final TimeoutNode[] slots;
        /** Set once, by CAS from null, by whichever producer first needs the next chunk. */
        volatile Chunk next;

        Chunk(final long number, final int size) {
            this.number = number;
            this.slots = new TimeoutNode[size];
        }
    }

    /** log2 of the chunk size; final fields rather than constants only so that tests can shrink chunks. */
    private final int chunkShift;
    private final int chunkMask;

    private final PaddedLongs indexes = new PaddedLongs(2);
    /**
     * A hint: a chunk at or before the one the newest claim falls in. Producers start their walk
     * here; it lags behind only until the next producer that needs a newer chunk moves it.
     */
    private volatile Chunk producerChunk;
    /** The chunk the consumer reads from; written by the consumer, read by late producers. */
    private volatile Chunk consumerChunk;

    NodeQueue() {
        this(CHUNK_SHIFT);
    }

    /**
     * Creates a queue with chunks of {@code 1 << chunkShift} slots. Only the lincheck tests in
     * tickwheel-stress pass a small shift, so that scenarios of a few offers cross chunk boundaries.
     *
     * @param chunkShift log2 of the chunk size
     */
    NodeQueue(final int chunkShift) {
        assert chunkShift >= 0 && chunkShift <= CHUNK_SHIFT : chunkShift;
        this.chunkShift = chunkShift;
        this.chunkMask = (1 << chunkShift) - 1;
        Chunk first = new Chunk(0, 1 << chunkShift);
        producerChunk = first;
        consumerChunk = first;
    }

    /**
     * Appends {@code node}.
     *
     * @param node the node to hand off
     * @return the index the node was given: the count of nodes offered before it
     */
    long offer(final TimeoutNode node) {
        long index = indexes.getAndAdd(PRODUCER, 1);
        long number = index >>> chunkShift;
        Chunk chunk = producerChunk;
        if (chunk.number != number) {
            chunk = chunkFor(chunk, number);
        }
        // Release: publishes the node's fields to the consumer's acquire load in poll().
        SLOTS.setRelease(chunk.slots, (int) (index & chunkMask), node);
        return index;
    }

    private Chunk chunkFor(final Chunk hint, final long number) {
        // A producer descheduled after its claim may find the hint already past its chunk. The
        // consumer cannot have passed our unfilled slot, so its chunk is at or before ours.
        Chunk chunk = hint.number <= number ? hint : consumerChunk;
        while (chunk.number < number) {
            Chunk next = chunk.next;
            if (next == null) {
                Chunk created = new Chunk(chunk.number + 1, chunk.slots.length);
                Chunk witness = (Chunk) NEXT.compareAndExchange(chunk, (Chunk) null, created);
                next = witness == null ? created : witness;
            }
            chunk = next;
        }
        Chunk current = producerChunk;
        if (current.number < chunk.number) {
            // A lost race leaves the hint one chunk behind, which only costs the next walk a step.
            PRODUCER_CHUNK.compareAndSet(this, current, chunk);
        }
        return chunk;
    }

    /**
     * Removes the oldest node. Worker thread only.
     *
     * @return the node, or null if every claimed index has been consumed
     */
    TimeoutNode poll() {
        long index = indexes.getPlain(CONSUMER);
        Chunk chunk = consumerChunk;
        if (chunk.number != index >>> chunkShift) {
            Chunk next = chunk.next;
            if (next == null) {
                if (index == indexes.getVolatile(PRODUCER)) {
                    return null;
                }
                next = awaitNext(chunk);
            }
            consumerChunk = next;
            chunk = next;
        }
        int offset = (int) (index & chunkMask);
        TimeoutNode node = (TimeoutNode) SLOTS.getAcquire(chunk.slots, offset);
        if (node == null) {
            if (index == indexes.getVolatile(PRODUCER)) {
                return null;
            }
            node = awaitSlot(chunk.slots, offset);
        }
        // Plain is enough: no producer writes a consumed slot again.
        chunk.slots[offset] = null;
        // Release: readers of producedCount() - consumedCount() never see a negative backlog.
        indexes.setRelease(CONSUMER, index + 1);
        return node;
    }

    private static Chunk awaitNext(final Chunk chunk) {
        Chunk next;
        int spins = 0;
        while ((next = chunk.next) == null) {
            backOff(++spins);
        }
        return next;
    }

    private static TimeoutNode awaitSlot(final TimeoutNode[] slots, final int offset) {
        TimeoutNode node;
        int spins = 0;
        while ((node = (TimeoutNode) SLOTS.getAcquire(slots, offset)) == null) {
            backOff(++spins);
        }
        return node;
    }

    // Yield, not park: the wait is for another thread's next few instructions, and parking would
    // cost a timer slack (~50 us) each time.
    @SuppressWarnings("ThreadPriorityCheck")
    private static void backOff(final int spins) {
        if (spins % SPINS_BEFORE_YIELD == 0) {
            // The producer was descheduled mid-offer; on two cores it needs ours to finish.
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }

    /**
     * Returns whether every claimed index has been consumed. Worker thread only.
     *
     * @return true if empty
     */
    boolean isEmpty() {
        return indexes.getVolatile(PRODUCER) == indexes.getPlain(CONSUMER);
    }

    /**
     * Returns how many nodes were ever offered (claimed). Any thread.
     *
     * @return the producer index
     */
    long producedCount() {
        return indexes.getVolatile(PRODUCER);
    }

    /**
     * Returns how many nodes the consumer has taken. Any thread.
     *
     * @return the consumer index
     */
    long consumedCount() {
        return indexes.getAcquire(CONSUMER);
    }
}
