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
 * <h2>Tombstones</h2>
 * A cancelled node still queued costs the worker's purge a load of the node, a cache miss each.
 * So a node records its place ({@link TimeoutNode#place}: lane and low index bits), the queue
 * keeps the slot arrays of its newest chunks in a ring by chunk number, and the thread whose cancel
 * CAS won looks its slot up there and, if the slot still holds that very node, overwrites it with
 * {@link #TOMBSTONE}, a shared node already cancelled, which the worker drops as it drops any
 * cancelled node. The identity check makes it safe: a slot only ever holds its own node, then null
 * (consumed) or the tombstone, and chunks and their slot arrays are never reused, so a stale ring
 * entry, a racy place or a wrapped index finds another node or none and writes nothing. A
 * tombstone written just after the consumer took the node lands in a consumed slot, which nobody
 * reads again. The consumer clears a chunk's entry as it leaves the chunk; only a producer
 * descheduled between linking a chunk and writing its entry can put a left chunk's slots back,
 * until the chunk 64 later takes the entry (at most 256 KiB a lane). A missed
 * slot only costs the worker the load it always paid. The trade (ses-churn 10k, docs/BENCHMARKS.md):
 * the worker's share of an operation fell from about 41 to about 17 CPU ns, the canceller's rose by
 * about 8 (its look-up of the slot, a cache miss of its own), the process's fell by about 16.
 *
 * <p>Threading: {@link #offer} is thread-safe (any producer); {@link #poll} and
 * {@link #isEmpty} are single consumer (the worker thread only).
 */
final class NodeQueue {

    /** Chunks of 1024 slots in production. */
    static final int CHUNK_SHIFT = 10;
    private static final int SPINS_BEFORE_YIELD = 64;

    /** Cell written by every producer (atomic add). */
    private static final int PRODUCER = 0;
    /** Cell written by the consumer only (release), read by anyone for sizes. */
    private static final int CONSUMER = 1;

    /** Chunks the ring remembers, by number: 64 K nodes back, more than a purge's bound. */
    private static final int RING_SIZE = 64;
    /** Bits of a place ({@link TimeoutNode#place}): the state word's bits above the state. */
    private static final int PLACE_MASK = -1 >>> TimeoutNode.STATE_BITS;

    /** Stands in for a cancelled node in its slot; see the class comment. */
    static final TimeoutNode TOMBSTONE = new TimeoutNode(null, null, 0);

    static {
        TOMBSTONE.tryCancelQuietly();
    }

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(TimeoutNode[].class);
    private static final VarHandle RING = MethodHandles.arrayElementVarHandle(TimeoutNode[][].class);
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
    /** This queue's lane, and log2 of the lane count: the low bits of a place. */
    private final int lane;
    private final int laneBits;
    /**
     * The slots of chunk {@code n} at {@code n mod RING_SIZE} from when it is linked until the consumer
     * leaves it; written by the producer that linked it (release) and cleared by the consumer (CAS),
     * read by cancellers (acquire). See the class comment. The slots rather than the chunk: a cancel
     * then reaches its slot in one dependent load fewer, which under churn is a cache miss.
     */
    private final TimeoutNode[][] ring = new TimeoutNode[RING_SIZE][];
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
        this(chunkShift, 0, 0);
    }

    /**
     * Creates lane {@code lane} of {@code 1 << laneBits}, with chunks of {@code 1 << chunkShift} slots.
     *
     * @param chunkShift log2 of the chunk size
     * @param lane this queue's lane
     * @param laneBits log2 of the lane count, at most 4
     */
    NodeQueue(final int chunkShift, final int lane, final int laneBits) {
        assert chunkShift >= 0 && chunkShift <= CHUNK_SHIFT : chunkShift;
        assert laneBits >= 0 && laneBits <= 4 && lane >= 0 && lane < 1 << laneBits : lane + "/" + laneBits;
        this.chunkShift = chunkShift;
        this.chunkMask = (1 << chunkShift) - 1;
        this.lane = lane;
        this.laneBits = laneBits;
        Chunk first = new Chunk(0, 1 << chunkShift);
        producerChunk = first;
        consumerChunk = first;
        ring[0] = first.slots;
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
            node.place(placeOf(index));
            // Release: orders the node's fields, its place included, before the plain slot store below
            // (see the class comment).
            VarHandle.releaseFence();
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
                if (witness == null) {
                    RING.setRelease(ring, (int) created.number & (RING_SIZE - 1), created.slots);
                }
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
            chunk = leave(chunk);
        }
        int offset = (int) (index & chunkMask);
        TimeoutNode node = (TimeoutNode) SLOTS.getAcquire(chunk.slots, offset);
        if (node == null) {
            if (index == indexes.getVolatile(PRODUCER)) {
                return null;
            }
            node = awaitSlot(chunk.slots, offset);
        }
        // Release: readers of producedCount() - consumedCount() never see a negative backlog. First,
        // because it is a call: if it throws, the slot must still hold the node (a null in an
        // unconsumed slot would have the final drain wait for it forever).
        indexes.setRelease(CONSUMER, index + 1);
        // Plain is enough: no producer writes a consumed slot again (a tombstone may land there).
        chunk.slots[offset] = null;
        return node;
    }

    /**
     * Moves the consumer to the chunk after {@code chunk}, which holds the next claimed index, and
     * takes {@code chunk}'s slots out of the ring (a tombstone after that only costs the worker a load).
     */
    private Chunk leave(final Chunk chunk) {
        RING.compareAndSet(ring, (int) chunk.number & (RING_SIZE - 1), chunk.slots, (TimeoutNode[]) null);
        // Linked before the claim of any index in it, and the caller saw such a claim.
        Chunk next = chunk.next;
        assert next != null && next.number == chunk.number + 1 : "chunk of a claimed index missing";
        consumerChunk = next;
        return next;
    }

    /**
     * Removes the oldest nodes, up to {@code max} and not past the end of their chunk, into
     * {@code into} from index 0; worker thread only. Reading them all first and the loads of the
     * nodes (by the caller) after lets those cache misses overlap.
     *
     * @return how many; 0 if every claimed index has been consumed
     */
    int pollBatch(final TimeoutNode[] into, final int max) {
        long index = indexes.getPlain(CONSUMER);
        long available = indexes.getVolatile(PRODUCER) - index;
        if (available <= 0 || max <= 0) {
            return 0;
        }
        Chunk chunk = consumerChunk;
        if (chunk.number != index >>> chunkShift) {
            chunk = leave(chunk);
        }
        int offset = (int) (index & chunkMask);
        int count = (int) Math.min(Math.min(max, available), chunkMask + 1 - offset);
        TimeoutNode[] slots = chunk.slots;
        try {
            for (int i = 0; i < count; i++) {
                TimeoutNode node = (TimeoutNode) SLOTS.getAcquire(slots, offset + i);
                into[i] = node != null ? node : awaitSlot(slots, offset + i);
            }
            indexes.setRelease(CONSUMER, index + count); // release: as in poll()
        } catch (Throwable t) {
            // An Error in a wait or a call above: the queue still holds every node, so none may also
            // stay in {@code into}, where the final drain would find it a second time.
            for (int i = 0; i < count; i++) {
                into[i] = null;
            }
            throw t;
        }
        // Consumed: from here on no call, so nothing can throw between the index and the slots.
        for (int i = 0; i < count; i++) {
            slots[offset + i] = null;
        }
        return count;
    }

    /**
     * The place ({@link TimeoutNode#place}) of {@code index} in this lane: lane and index bits,
     * plus one, so that 0 means none.
     */
    private int placeOf(final long index) {
        return placeOf(index, lane, laneBits);
    }

    /** {@link #placeOf(long)} for any lane; tests check its wrap-around. */
    static int placeOf(final long index, final int lane, final int laneBits) {
        return ((((int) index << laneBits) | lane) + 1) & PLACE_MASK;
    }

    /**
     * Puts {@link #TOMBSTONE} in {@code node}'s slot if it still holds it; any thread, called by the
     * one whose cancel CAS succeeded. See the class comment.
     *
     * @param node the cancelled node
     * @param place its place in this lane ({@link #placeOf(long)}), not 0
     */
    @SuppressWarnings("ReferenceEquality") // the slot's node itself, not an equal one
    void tombstone(final Object node, final int place) {
        int index = (place - 1) >>> laneBits; // the index's low bits
        TimeoutNode[] slots = (TimeoutNode[]) RING.getAcquire(ring, (index >>> chunkShift) & (RING_SIZE - 1));
        if (slots != null) {
            int offset = index & chunkMask;
            // Plain: a data race with the consumer's null only, and either order is harmless.
            if (slots[offset] == node) {
                slots[offset] = TOMBSTONE;
            }
        }
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

    /** Whether every claimed index has been consumed. Worker thread only. */
    boolean isEmpty() {
        return indexes.getVolatile(PRODUCER) == indexes.getPlain(CONSUMER);
    }

    /** How many nodes were ever offered (claimed): the producer index. Any thread. */
    long producedCount() {
        return indexes.getVolatile(PRODUCER);
    }

    /** How many nodes the consumer has taken: the consumer index. Any thread. */
    long consumedCount() {
        return indexes.getAcquire(CONSUMER);
    }
}
