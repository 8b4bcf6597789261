package io.tickwheel.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The hand-off from scheduling threads to the worker: an unbounded multi-producer,
 * single-consumer queue of nodes in linked fixed-size chunks.
 *
 * <h2>No claim is ever left unfilled</h2>
 * A producer claims an index by CAS on the producer index, and only with the chunk of that index
 * already in hand: it finds (or allocates and links) the chunk first, while nothing is claimed,
 * then claims, then stores the node with a plain array store. Between the claim and the store
 * there is no call and no allocation, so no {@link StackOverflowError} or
 * {@link OutOfMemoryError} can strike there (HotSpot raises them only at a call or an allocation),
 * and a producer that throws has claimed nothing. A claim made before the store could be
 * stranded by such an Error, leaving the consumer to wait forever for its slot; a tombstone the
 * consumer could skip would need the failing producer to run more code, at the very point where
 * it has no stack left. The price is a CAS loop instead of an atomic add, which retries only
 * when two producers race for the same index.
 *
 * <p>Ordering: the producer's {@link VarHandle#releaseFence()}, taken after the node was built
 * and before the claim, makes the plain store of the node into its slot a release store; it pairs
 * with the consumer's acquire load of the slot in {@link #poll()}, which therefore sees the node's
 * fields. Because every claim is one index, {@link #producedCount()} is also the number of nodes
 * ever offered, which the core uses as its "scheduled" counter at no extra cost.
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
     * A hint: a chunk at or before the one the next claim falls in (a producer moves it to the chunk
     * of an index it read, never further). Producers start their walk here; it lags behind only
     * until the next producer that needs a newer chunk moves it.
     */
    private volatile Chunk producerChunk;
    /** The chunk the consumer reads from; worker thread only. */
    private Chunk consumerChunk;
    /**
     * Test hook, null in production: runs on the producer just before it allocates a chunk, while
     * it holds no claim, so a test can throw there what an allocation or a call may throw.
     */
    volatile Runnable beforeNewChunk;

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
     * Appends {@code node}. Either the node is in the queue when this returns, or this threw and
     * nothing was claimed (see the class comment).
     *
     * @param node the node to hand off
     * @return the index the node was given: the count of nodes offered before it
     */
    long offer(final TimeoutNode node) {
        return offer(node, null);
    }

    /**
     * Appends {@code node} if {@code limit} allows one more pending timeout: checked against the very
     * index the claim then takes, so the check and the claim are one step (see {@link PendingLimit}).
     *
     * @param node the node to hand off
     * @param limit the pending limit, or null for none
     * @return the index the node was given: the count of nodes offered before it
     * @throws java.util.concurrent.RejectedExecutionException if the limit is reached; nothing claimed
     */
    long offer(final TimeoutNode node, final PendingLimit limit) {
        // Release: orders the node's fields before the plain slot store below (see the class comment).
        VarHandle.releaseFence();
        while (true) {
            long index = indexes.getVolatile(PRODUCER);
            if (limit != null) {
                limit.checkBeforeClaim(index);
            }
            Chunk chunk = producerChunk;
            if (chunk.number != index >>> chunkShift) {
                chunk = chunkFor(chunk, index >>> chunkShift);
                if (chunk == null) {
                    continue; // our index went stale: others claimed past it
                }
            }
            if (indexes.compareAndExchange(PRODUCER, index, index + 1) == index) {
                // No call and no allocation from the claim to this store: nothing can throw here.
                chunk.slots[(int) (index & chunkMask)] = node;
                return index;
            }
        }
    }

    /**
     * Finds the chunk for {@code number}, allocating and linking it if need be, before any claim.
     *
     * @return the chunk, or null if {@code number} is behind the newest chunk (the caller rereads)
     */
    private Chunk chunkFor(final Chunk hint, final long number) {
        if (hint.number > number) {
            return null;
        }
        Chunk chunk = hint;
        while (chunk.number < number) {
            Chunk next = chunk.next;
            if (next == null) {
                Runnable hook = beforeNewChunk;
                if (hook != null) {
                    hook.run();
                }
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
            if (index == indexes.getVolatile(PRODUCER)) {
                return null;
            }
            // Linked before the claim of any index in it, and the claim is what we just saw.
            Chunk next = chunk.next;
            assert next != null && next.number == chunk.number + 1 : "chunk of a claimed index missing";
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
