package io.tickwheel.internal;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A hierarchical timing wheel (Varghese and Lauck's scheme 7): like a watch's second, minute and
 * hour hands, level {@code L} has {@code 2^bits} buckets of {@code 2^(L*bits)} ticks each, and a
 * node moves to a finer level as the clock approaches its deadline (a cascade), at most
 * {@code levels - 1} times.
 *
 * <h2>Placement</h2>
 * Read a tick as a number in base {@code 2^bits}; each digit is one level. A node due at tick
 * {@code d} sits at the level of the highest digit in which {@code d} differs from the current
 * tick {@code c}, in the bucket named by {@code d}'s digit there. So a level-{@code L} node shares
 * every digit above {@code L} with {@code c}, and its digit at {@code L} is greater than
 * {@code c}'s. With 64 buckets per level and the current tick 0x1040 (digits 1, 1, 0):
 * <pre>
 *   deadline 0x1047 (digits 1, 1, 7)  differs first at level 0: level 0, bucket 7
 *   deadline 0x1300 (digits 1, 12, 0) differs first at level 1: level 1, bucket 12
 *   deadline 0x5000 (digits 5, 0, 0)  differs first at level 2: level 2, bucket 5
 * </pre>
 * When the clock reaches the start of a bucket's range ({@code c}'s digits above {@code L} kept,
 * digit {@code L} set to the bucket, lower digits zero), the bucket's nodes either are due (all
 * lower digits zero) or are placed again relative to the new {@code c}, at a lower level. The
 * next tick with work is found from one occupancy bitmap per level: the lowest level with a
 * bucket above {@code c}'s digit, and its lowest such bucket. Empty ticks cost nothing, so the
 * worker sleeps until that tick, and far-future nodes cost nothing until their level's hand
 * reaches them.
 *
 * <p>There are enough levels for every tick a {@code long} deadline can reach, so the range is
 * unbounded and nothing wraps around.
 *
 * <p>Buckets are arrays of node references, for the reason given on {@link BucketArrays}.
 *
 * <p>Threading: not thread-safe; confined by the worker thread.
 */
public final class HierarchicalWheel extends TimingWheel {

    private final int bits;
    private final long slotMask;
    private final int levels;
    /** Level of a node whose deadline first differs from the current tick at bit {@code b}. */
    private final byte[] levelOfBit = new byte[Long.SIZE];
    /** Bucket {@code (level << bits) | slot}. */
    private final BucketArrays buckets;
    /** Bit {@code slot} of {@code occupied[level]} is set iff that bucket is non-empty. */
    private final long[] occupied;

    /**
     * Creates a wheel.
     *
     * @param originNanos the clock reading where tick 0 starts
     * @param tickNanos the finest level's tick length
     * @param bits log2 of the buckets per level, 1 to 6
     */
    public HierarchicalWheel(final long originNanos, final long tickNanos, final int bits) {
        super(originNanos, tickNanos);
        this.bits = Checks.inRange(bits, 1, 6, "bits");
        this.slotMask = (1L << bits) - 1;
        long maxTick = Long.MAX_VALUE / tickNanos + 1;
        int tickBits = 64 - Long.numberOfLeadingZeros(maxTick);
        this.levels = (tickBits + bits - 1) / bits;
        this.buckets = new BucketArrays(levels << bits, true);
        this.occupied = new long[levels];
        for (int bit = 0; bit < Long.SIZE; bit++) {
            // A table instead of a division by bits on every insert and cascade.
            levelOfBit[bit] = (byte) (bit / bits);
        }
    }

    @Override
    void place(final TimeoutNode node, final long tick) {
        int level = levelOfBit[63 - Long.numberOfLeadingZeros(tick ^ currentTick)];
        int slot = (int) ((tick >>> (level * bits)) & slotMask);
        int bucket = (level << bits) | slot;
        // The key is the tick's low 32 bits: with the digits above its level, which the bucket's
        // start tick holds when it cascades, they give the tick back without reading the node.
        buckets.append(bucket, node, (int) tick);
        occupied[level] |= 1L << slot;
    }

    /** Detaches a bucket's nodes (the caller walks the array it got before) and clears its bit. */
    private void emptied(final int bucket) {
        buckets.truncate(bucket, 0);
        occupied[bucket >>> bits] &= ~(1L << (bucket & (int) slotMask));
    }

    /** Returns the bucket with the next work after the current tick, or -1 if none. */
    private int nextBucket() {
        for (int level = 0; level < levels; level++) {
            int digit = (int) ((currentTick >>> (level * bits)) & slotMask);
            long above = occupied[level] & (-2L << digit);
            if (above != 0) {
                return (level << bits) | Long.numberOfTrailingZeros(above);
            }
        }
        return -1;
    }

    /** The first tick of {@code bucket}'s range, given the current tick's higher digits. */
    private long startTick(final int bucket) {
        int level = bucket >>> bits;
        int shift = level * bits;
        int upper = shift + bits;
        long high = upper >= Long.SIZE ? 0 : (currentTick >>> upper) << upper;
        return high | ((long) (bucket & (int) slotMask) << shift);
    }

    @Override
    public void advance(final long nowNanos, final Consumer<TimeoutNode> sink) {
        long target = tickAt(nowNanos);
        while (currentTick < target) {
            int bucket = nextBucket();
            long start = bucket < 0 ? Long.MAX_VALUE : startTick(bucket);
            if (start > target) {
                // Nothing starts in between, so every node keeps its level and bucket.
                currentTick = target;
                return;
            }
            currentTick = start;
            if (bucket >>> bits == 0) {
                expireAll(bucket, sink);
            } else {
                cascade(bucket, sink);
            }
        }
    }

    /**
     * A level-0 bucket holds exactly one tick, the current one now: every node in it is due. Its
     * nodes are detached first, so the array may be reused while the tasks run.
     */
    private void expireAll(final int bucket, final Consumer<TimeoutNode> sink) {
        TimeoutNode[] nodes = buckets.nodes(bucket);
        int[] keys = buckets.keys(bucket);
        int count = buckets.count(bucket);
        emptied(bucket);
        int i = 0;
        try {
            for (int from = 0; from < count; from += BucketArrays.BLOCK) {
                int to = Math.min(count, from + BucketArrays.BLOCK);
                clearCancelled(nodes, from, to);
                // The hot path of expiry: kept as its own loop so the sink call stays monomorphic.
                for (i = from; i < to; i++) {
                    TimeoutNode node = nodes[i];
                    if (node != null) {
                        assert deadlineTick(node) <= currentTick : "level-0 node not due at its bucket's tick";
                        sink.accept(node);
                        nodes[i] = null;
                        unlinked(false);
                    }
                }
            }
        } catch (Throwable t) {
            salvage(bucket, nodes, keys, i, count);
            throw t;
        }
    }

    /**
     * Re-places the nodes of a higher-level bucket whose range starts now. Each goes to a lower
     * level (it shares every digit from this level up with the new current tick), never back
     * into this bucket, so the array can be walked while others grow.
     *
     * <p>A node's tick is rebuilt from its key: the bucket's start tick (now the current tick)
     * holds every digit from this level up, the key the lower ones. So a node is read only when it
     * is due now, and a cancelled one is carried down unread, to be dropped at level 0 or by a
     * purge, whichever reads it first. Levels whose lower digits need more than the key's 32 bits
     * (ticks years away) read the node's deadline instead.
     */
    private void cascade(final int bucket, final Consumer<TimeoutNode> sink) {
        TimeoutNode[] nodes = buckets.nodes(bucket);
        int[] keys = buckets.keys(bucket);
        int count = buckets.count(bucket);
        int lowBits = (bucket >>> bits) * bits;
        long lowMask = lowBits >= 32 ? 0xFFFF_FFFFL : (1L << lowBits) - 1;
        emptied(bucket);
        int i = 0;
        try {
            for (; i < count; i++) {
                TimeoutNode node = nodes[i];
                long tick = lowBits > 32 ? deadlineTick(node)
                        : currentTick | (keys[i] & lowMask);
                if (tick <= currentTick) {
                    if (node.isCancelled()) {
                        unlinked(true);
                    } else {
                        sink.accept(node);
                        unlinked(false);
                    }
                } else {
                    place(node, tick);
                }
                nodes[i] = null;
            }
        } catch (Throwable t) {
            salvage(bucket, nodes, keys, i, count);
            throw t;
        }
    }

    /**
     * A walk of a detached bucket failed at {@code failed} (a sink threw: the worker is about to
     * fail): the nodes it had not finished go back into the bucket, keys included, and the bucket
     * is marked occupied again, so the final drain finds them.
     */
    private void salvage(final int bucket, final TimeoutNode[] nodes, final int[] keys, final int failed,
            final int count) {
        if (buckets.salvage(bucket, nodes, keys, 0, failed, count) > 0) {
            occupied[bucket >>> bits] |= 1L << (bucket & (int) slotMask);
        }
    }

    @Override
    public long purgeCancelled() {
        long before = droppedCancelled();
        for (int bucket = 0; bucket < buckets.buckets(); bucket++) {
            if (buckets.count(bucket) > 0 && purgeBucket(buckets, bucket) == 0) {
                emptied(bucket);
            }
        }
        return droppedCancelled() - before;
    }

    @Override
    public long nanosUntilNextTick(final long nowNanos) {
        int bucket = nextBucket();
        return bucket < 0 ? NEVER : nanosUntilTick(startTick(bucket), nowNanos);
    }

    @Override
    void drainBuckets(final Consumer<TimeoutNode> sink) {
        for (int bucket = 0; bucket < buckets.buckets(); bucket++) {
            drain(buckets, bucket, sink);
        }
        Arrays.fill(occupied, 0L);
    }

    @Override
    public void checkInvariants() {
        long counted = 0;
        for (int bucket = 0; bucket < buckets.buckets(); bucket++) {
            int level = bucket >>> bits;
            int slot = bucket & (int) slotMask;
            buckets.checkBucket(bucket);
            int count = buckets.count(bucket);
            TimeoutNode[] nodes = buckets.nodes(bucket);
            boolean bit = (occupied[level] & (1L << slot)) != 0;
            check(bit == (count > 0), "occupancy bit of bucket " + bucket);
            for (int i = 0; i < count; i++) {
                TimeoutNode node = nodes[i];
                long tick = Math.max(deadlineTick(node), currentTick + 1);
                int expectedLevel = (63 - Long.numberOfLeadingZeros(tick ^ currentTick)) / bits;
                int expectedSlot = (int) ((tick >>> (expectedLevel * bits)) & slotMask);
                check(expectedLevel == level && expectedSlot == slot,
                        "node due at tick " + tick + " in level " + level + " bucket " + slot
                                + ", belongs in level " + expectedLevel + " bucket " + expectedSlot);
                counted++;
            }
        }
        check(counted == size(), "size " + size() + " but " + counted + " linked");
    }
}
