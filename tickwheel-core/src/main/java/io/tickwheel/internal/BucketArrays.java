package io.tickwheel.internal;

import java.util.Arrays;

/**
 * The buckets of a timing wheel, each an array of node references in insertion order (the
 * nodes of bucket {@code b} are {@code nodes(b)[0 .. count(b))}).
 *
 * <p>Why arrays and not a list linked through the nodes: expiring or cascading a bucket visits
 * every node in it, and in a burst those nodes are spread over tens of megabytes. A linked walk
 * cannot ask for the next node before the current one's cache miss is served; an array walk
 * knows every address in advance, so the processor overlaps the misses. On a million nodes due
 * within one second that is about three times less CPU per fire. Each pending node costs one
 * reference here instead of a {@code next} field in the node, plus up to as much again while
 * its array is not full.
 *
 * <p>An array that grew past {@link #KEEP_CAPACITY} is released when its bucket empties, or
 * shrunk when a quarter or less of it is still in use, so a burst does not pin its peak; smaller
 * ones are kept for reuse.
 *
 * <p>Threading: not thread-safe; confined like the wheel that owns it.
 */
final class BucketArrays {

    /**
     * Nodes a wheel looks at in one go before expiring them (see
     * {@link TimingWheel#clearCancelled}): few enough that they are still cached when expired.
     */
    static final int BLOCK = 256;
    /** Capacity of a bucket's first array. */
    static final int INITIAL_CAPACITY = 8;
    /** Arrays up to this capacity are kept for reuse when their bucket empties. */
    static final int KEEP_CAPACITY = 1 << 10;
    /** The largest array the JVM reliably allocates. */
    private static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    private final TimeoutNode[][] arrays;
    /**
     * Per node, a 32-bit key kept beside its reference (same bucket, same index), or null when
     * this instance keeps none. The hierarchical wheel keeps the low bits of each node's tick
     * here, so a cascade re-places a node from the array alone, without the cache miss of reading
     * the node: in a burst, that miss was two thirds of the worker's time.
     */
    private final int[][] keys;
    private final int[] counts;

    BucketArrays(final int buckets) {
        this(buckets, false);
    }

    /**
     * Creates the buckets.
     *
     * @param buckets how many
     * @param keyed whether each node carries an int key ({@link #append(int, TimeoutNode, int)})
     */
    BucketArrays(final int buckets, final boolean keyed) {
        arrays = new TimeoutNode[buckets][];
        keys = keyed ? new int[buckets][] : null;
        counts = new int[buckets];
    }

    int buckets() {
        return counts.length;
    }

    void append(final int bucket, final TimeoutNode node) {
        int count = counts[bucket];
        TimeoutNode[] nodes = arrays[bucket];
        if (nodes == null || count == nodes.length) {
            nodes = grow(bucket, count);
        }
        nodes[count] = node;
        counts[bucket] = count + 1;
    }

    /**
     * Appends a node with its key; only on a keyed instance.
     *
     * @param bucket the bucket
     * @param node the node
     * @param key its key, returned by {@link #keys(int)} at the node's index
     */
    void append(final int bucket, final TimeoutNode node, final int key) {
        int count = counts[bucket];
        TimeoutNode[] nodes = arrays[bucket];
        if (nodes == null || count == nodes.length) {
            nodes = grow(bucket, count);
        }
        // Key first: if it threw (it cannot once grow() returned), the node would not be half-added.
        keys[bucket][count] = key;
        nodes[count] = node;
        counts[bucket] = count + 1;
    }

    private TimeoutNode[] grow(final int bucket, final int count) {
        if (count >= MAX_CAPACITY) {
            throw new OutOfMemoryError("a timing wheel bucket holds " + count + " timeouts");
        }
        int capacity = (int) Math.min(MAX_CAPACITY, Math.max(INITIAL_CAPACITY, 2L * count));
        TimeoutNode[] old = arrays[bucket];
        // Both arrays are allocated before either is installed, so an OutOfMemoryError leaves the
        // bucket as it was.
        TimeoutNode[] grown = old == null ? new TimeoutNode[capacity] : Arrays.copyOf(old, capacity);
        if (keys != null) {
            int[] oldKeys = keys[bucket];
            int[] grownKeys = oldKeys == null ? new int[capacity] : Arrays.copyOf(oldKeys, capacity);
            keys[bucket] = grownKeys;
        }
        arrays[bucket] = grown;
        return grown;
    }

    /** The bucket's array, or null if it has none; only its first {@link #count} slots are nodes. */
    TimeoutNode[] nodes(final int bucket) {
        return arrays[bucket];
    }

    /**
     * The bucket's keys, parallel to {@link #nodes(int)}; null if it has no array or this instance
     * keeps no keys. A caller that walks a bucket it emptied first keeps its own reference.
     */
    int[] keys(final int bucket) {
        return keys == null ? null : keys[bucket];
    }

    int count(final int bucket) {
        return counts[bucket];
    }

    /**
     * Keeps only the first {@code kept} nodes; the caller has already cleared the slots after
     * them. A caller that walks a bucket it emptied first keeps its own reference to the array.
     */
    void truncate(final int bucket, final int kept) {
        counts[bucket] = kept;
        TimeoutNode[] nodes = arrays[bucket];
        if (nodes == null || nodes.length <= KEEP_CAPACITY || kept > nodes.length / 4) {
            return;
        }
        // A burst's array: release it, or (a hashed bucket rarely empties) shrink it to its use.
        if (kept == 0) {
            arrays[bucket] = null;
            if (keys != null) {
                keys[bucket] = null;
            }
        } else {
            int capacity = Math.max(INITIAL_CAPACITY, 2 * kept);
            TimeoutNode[] smaller = new TimeoutNode[capacity];
            System.arraycopy(nodes, 0, smaller, 0, kept);
            if (keys != null) {
                keys[bucket] = Arrays.copyOf(keys[bucket], capacity);
            }
            arrays[bucket] = smaller;
        }
    }

    /**
     * Puts back what a walk of {@code nodes} (the bucket's array when the walk began) had not
     * finished when it failed: the bucket keeps its first {@code kept} nodes, then gets the
     * non-null ones of {@code nodes[from, count)}. Each lands below the slot it is read from, so
     * this works in place.
     *
     * @return how many nodes were put back after the kept ones
     */
    int salvage(final int bucket, final TimeoutNode[] nodes, final int kept, final int from, final int count) {
        return salvage(bucket, nodes, null, kept, from, count);
    }

    /**
     * {@link #salvage(int, TimeoutNode[], int, int, int)} for a keyed instance: {@code walkedKeys}
     * are the keys that were parallel to {@code nodes} when the walk began.
     *
     * @return how many nodes were put back after the kept ones
     */
    int salvage(final int bucket, final TimeoutNode[] nodes, final int[] walkedKeys, final int kept, final int from,
            final int count) {
        truncate(bucket, kept);
        int restored = 0;
        for (int i = from; i < count; i++) {
            TimeoutNode node = nodes[i];
            if (node != null) {
                nodes[i] = null;
                if (keys == null) {
                    append(bucket, node);
                } else {
                    append(bucket, node, walkedKeys[i]);
                }
                restored++;
            }
        }
        return restored;
    }

    /**
     * Removes the cancelled nodes of a bucket, keeping the others in order.
     *
     * @return how many were removed
     */
    int dropCancelled(final int bucket) {
        int count = counts[bucket];
        if (count == 0) {
            return 0;
        }
        TimeoutNode[] nodes = arrays[bucket];
        int[] bucketKeys = keys == null ? null : keys[bucket];
        int kept = 0;
        for (int i = 0; i < count; i++) {
            TimeoutNode node = nodes[i];
            if (!node.isCancelled()) {
                if (bucketKeys != null) {
                    bucketKeys[kept] = bucketKeys[i];
                }
                nodes[kept++] = node;
            }
        }
        Arrays.fill(nodes, kept, count, null);
        truncate(bucket, kept);
        return count - kept;
    }

    /** Throws if the bucket's count and array disagree (for the wheels' invariant checks). */
    void checkBucket(final int bucket) {
        int count = counts[bucket];
        TimeoutNode[] nodes = arrays[bucket];
        check(count >= 0 && (count == 0 || (nodes != null && count <= nodes.length)),
                "count " + count + " of bucket " + bucket);
        check(nodes == null || count == nodes.length || nodes[count] == null,
                "stale reference after the nodes of bucket " + bucket);
        check(keys == null || (nodes == null ? keys[bucket] == null
                : keys[bucket] != null && keys[bucket].length == nodes.length),
                "keys of bucket " + bucket + " not parallel to its nodes");
        for (int i = 0; i < count; i++) {
            check(nodes[i] != null, "null node " + i + " in bucket " + bucket);
        }
    }

    /** Throws if {@code condition} is false; used by {@link #checkBucket}. */
    private static void check(final boolean condition, final String what) {
        if (!condition) {
            throw new AssertionError("wheel invariant broken: " + what);
        }
    }
}
