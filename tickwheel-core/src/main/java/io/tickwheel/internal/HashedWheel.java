package io.tickwheel.internal;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Netty's hashed wheel (Varghese and Lauck's scheme 6): one ring of {@code 2^k} buckets, a node
 * in bucket {@code deadlineTick mod 2^k}, and far deadlines sharing a bucket with near ones (the
 * "rounds" of the paper, here implicit in the stored deadline).
 *
 * <p>Unlike Netty's wheel it does not need to visit every tick: each bucket remembers a lower
 * bound of its nodes' deadline ticks, so {@link #advance} only walks buckets that may hold a due
 * node, and {@link #nanosUntilNextTick} lets the worker sleep until the earliest of those bounds.
 * The cost that remains is the scheme's own: walking a due bucket also walks the far-future nodes
 * hashed into it. {@link HierarchicalWheel} removes that.
 *
 * <p>Buckets are arrays of node references, for the reason given on {@link BucketArrays}; a walk
 * keeps the nodes that are not due by compacting them to the front, in their order.
 *
 * <p>Threading: not thread-safe; confined by the worker thread.
 */
public final class HashedWheel extends TimingWheel {

    private static final long EMPTY = Long.MAX_VALUE;

    private final BucketArrays buckets;
    /** Per bucket, at most the smallest deadline tick in it; EMPTY when it has no nodes. */
    private final long[] minTick;
    private final int mask;
    /** At most the smallest {@code minTick}; exact unless {@code earliestStale}. */
    private long earliestTick = EMPTY;
    private boolean earliestStale;

    /**
     * Creates a wheel.
     *
     * @param originNanos the clock reading where tick 0 starts
     * @param tickNanos the tick length
     * @param wheelLength the number of buckets, a power of two
     */
    public HashedWheel(final long originNanos, final long tickNanos, final int wheelLength) {
        super(originNanos, tickNanos);
        if (wheelLength <= 0 || Integer.bitCount(wheelLength) != 1) {
            throw new IllegalArgumentException("wheelLength: " + wheelLength + " (expected: a power of two)");
        }
        buckets = new BucketArrays(wheelLength);
        minTick = new long[wheelLength];
        Arrays.fill(minTick, EMPTY);
        mask = wheelLength - 1;
    }

    @Override
    void place(final TimeoutNode node, final long tick) {
        int bucket = (int) (tick & mask);
        buckets.append(bucket, node);
        if (tick < minTick[bucket]) {
            minTick[bucket] = tick;
        }
        if (tick < earliestTick) {
            earliestTick = tick;
        }
    }

    @Override
    public void advance(final long nowNanos, final Consumer<TimeoutNode> sink) {
        long target = tickAt(nowNanos);
        // Tick by tick, as Netty's worker does, so tasks run in deadline-bucket order even after a
        // long stall; stretches with no due bucket are skipped using the bucket minimums.
        long tick = skipTo(currentTick, target);
        while (tick < target) {
            tick++;
            int bucket = (int) (tick & mask);
            if (minTick[bucket] <= tick) {
                expireBucket(bucket, tick, sink);
            }
            if (bucket == mask) {
                tick = skipTo(tick, target);
            }
        }
        currentTick = target;
    }

    /** The last tick before the earliest bucket minimum, if that is past {@code tick}. */
    private long skipTo(final long tick, final long target) {
        long earliest = earliestTick();
        return earliest > tick + 1 ? Math.max(tick, Math.min(target, earliest - 1)) : tick;
    }

    private long earliestTick() {
        if (earliestStale) {
            long earliest = EMPTY;
            for (long tick : minTick) {
                earliest = Math.min(earliest, tick);
            }
            earliestTick = earliest;
            earliestStale = false;
        }
        return earliestTick;
    }

    /**
     * Expires the due nodes of a bucket and keeps the rest, compacted to the front. Tasks cannot
     * reach the wheel (only the worker's transfer adds), so nothing is added to it meanwhile.
     */
    private void expireBucket(final int bucket, final long dueTick, final Consumer<TimeoutNode> sink) {
        TimeoutNode[] nodes = buckets.nodes(bucket);
        int count = buckets.count(bucket);
        long minDeadline = Long.MAX_VALUE;
        int kept = 0;
        int i = 0;
        try {
            for (int from = 0; from < count; from += BucketArrays.BLOCK) {
                int to = Math.min(count, from + BucketArrays.BLOCK);
                clearCancelled(nodes, from, to);
                for (i = from; i < to; i++) {
                    TimeoutNode node = nodes[i];
                    if (node == null) {
                        continue;
                    }
                    if (isDueBy(node, dueTick)) {
                        sink.accept(node);
                        nodes[i] = null;
                        unlinked(false);
                    } else {
                        minDeadline = Math.min(minDeadline, node.deadlineNanos - originNanos);
                        nodes[i] = null;
                        nodes[kept++] = node;
                    }
                }
            }
        } catch (Throwable t) {
            // A sink threw (the worker is about to fail): keep what is left for the final drain.
            buckets.salvage(bucket, nodes, kept, i, count);
            throw t;
        }
        buckets.truncate(bucket, kept);
        minTick[bucket] = kept == 0 ? EMPTY : ceilTicks(minDeadline);
        earliestStale = true;
    }

    @Override
    public long purgeCancelled() {
        long before = droppedCancelled();
        for (int bucket = 0; bucket <= mask; bucket++) {
            if (purgeBucket(buckets, bucket) == 0) {
                minTick[bucket] = EMPTY;
            }
        }
        earliestStale = true;
        return droppedCancelled() - before;
    }

    @Override
    public long nanosUntilNextTick(final long nowNanos) {
        if (size() == 0) {
            return NEVER;
        }
        return nanosUntilTick(earliestTick(), nowNanos);
    }

    @Override
    void drainBuckets(final Consumer<TimeoutNode> sink) {
        for (int bucket = 0; bucket <= mask; bucket++) {
            minTick[bucket] = EMPTY;
            drain(buckets, bucket, sink);
        }
        earliestTick = EMPTY;
        earliestStale = false;
    }

    @Override
    public void checkInvariants() {
        long counted = 0;
        long earliest = EMPTY;
        for (int bucket = 0; bucket <= mask; bucket++) {
            buckets.checkBucket(bucket);
            long smallest = EMPTY;
            TimeoutNode[] nodes = buckets.nodes(bucket);
            int count = buckets.count(bucket);
            for (int i = 0; i < count; i++) {
                TimeoutNode node = nodes[i];
                long tick = Math.max(deadlineTick(node), currentTick + 1);
                check((tick & mask) == bucket, "node in bucket " + bucket + " belongs in " + (tick & mask));
                check(node.isCancelled() || tick > currentTick, "pending node due at or before the current tick");
                smallest = Math.min(smallest, tick);
                counted++;
            }
            check(minTick[bucket] <= smallest, "bucket " + bucket + " min tick above a node's tick");
            check(count > 0 || minTick[bucket] == EMPTY, "empty bucket with a min tick");
            earliest = Math.min(earliest, minTick[bucket]);
        }
        check(counted == size(), "size " + size() + " but " + counted + " linked");
        check(earliestStale || earliestTick <= earliest, "earliest tick above a bucket's min tick");
    }
}
