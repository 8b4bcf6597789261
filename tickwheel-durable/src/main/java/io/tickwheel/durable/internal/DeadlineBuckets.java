package io.tickwheel.durable.internal;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The undelivered timeouts of a {@link LiveSet} by deadline second: per one-second bucket, the slots
 * filed under it. An entry goes stale when its slot is rescheduled, removed or delivered; it is
 * dropped when its bucket is drained, or at the next {@link #clear()} of a rebuild.
 *
 * <p>Threading: not thread-safe; confined with its {@link LiveSet}.
 */
final class DeadlineBuckets {

    private static final long BUCKET_MILLIS = 1000;

    /** Gets each entry a drain takes; returns false to stop the drain. */
    interface Visitor {
        /**
         * One entry.
         *
         * @param slot the slot it names
         * @param bucket the bucket it was filed under
         * @return true to go on
         */
        boolean visit(int slot, long bucket);
    }

    private final TreeMap<Long, IntList> buckets = new TreeMap<>();
    private int entries;

    /**
     * The bucket of a deadline.
     *
     * @param deadlineMs epoch ms
     * @return the bucket
     */
    static long bucketOf(final long deadlineMs) {
        return Math.floorDiv(deadlineMs, BUCKET_MILLIS);
    }

    void add(final int slot, final long deadlineMs) {
        buckets.computeIfAbsent(bucketOf(deadlineMs), b -> new IntList()).add(slot);
        entries++;
    }

    /** Entries in all buckets, stale ones included. */
    int entries() {
        return entries;
    }

    void clear() {
        buckets.clear();
        entries = 0;
    }

    /**
     * Takes entries bucket by bucket, earliest first, up to and including {@code lastBucket}, until
     * {@code visitor} says stop (the entry it stopped at is taken) or none are left there.
     *
     * @param deadlineMs the latest deadline whose bucket is drained (epoch ms)
     * @param visitor gets each entry; it must not add to or clear these buckets
     */
    void drain(final long deadlineMs, final Visitor visitor) {
        long lastBucket = bucketOf(deadlineMs);
        while (!buckets.isEmpty()) {
            Map.Entry<Long, IntList> first = buckets.firstEntry();
            long bucket = first.getKey();
            if (bucket > lastBucket) {
                return;
            }
            IntList list = first.getValue();
            boolean more = true;
            while (list.size > 0 && more) {
                entries--;
                more = visitor.visit(list.values[--list.size], bucket);
            }
            if (list.size == 0) {
                buckets.pollFirstEntry();
            }
            if (!more) {
                return;
            }
        }
    }

    /** A growable list of ints. */
    private static final class IntList {
        int[] values = new int[4];
        int size;

        void add(final int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }
    }
}
