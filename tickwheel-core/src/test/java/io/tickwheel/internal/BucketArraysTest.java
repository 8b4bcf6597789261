package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Growth, order, compaction and the release of big arrays, which the wheels' tests reach only in part. */
class BucketArraysTest {

    private static TimeoutNode node(final long id) {
        return new TimeoutNode(null, t -> { }, id);
    }

    private static List<Long> ids(final BucketArrays buckets, final int bucket) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < buckets.count(bucket); i++) {
            ids.add(buckets.nodes(bucket)[i].deadlineNanos);
        }
        return ids;
    }

    @Test
    void append_pastManyGrowths_keepsEveryNodeInInsertionOrderAndOtherBucketsApart() {
        BucketArrays buckets = new BucketArrays(3);
        List<Long> expected = new ArrayList<>();
        for (long id = 0; id < 5_000; id++) {
            buckets.append(1, node(id));
            expected.add(id);
        }
        buckets.append(2, node(-1));

        assertThat(ids(buckets, 1)).isEqualTo(expected);
        assertThat(ids(buckets, 2)).containsExactly(-1L);
        assertThat(buckets.count(0)).isZero();
        assertThat(buckets.nodes(0)).isNull();
        buckets.checkBucket(1);
    }

    @Test
    void truncate_toZero_dropsOnlyArraysBiggerThanKeepCapacity() {
        BucketArrays buckets = new BucketArrays(2);
        for (int i = 0; i <= BucketArrays.KEEP_CAPACITY; i++) {
            buckets.append(0, node(i));
        }
        buckets.append(1, node(7));
        TimeoutNode[] small = buckets.nodes(1);
        Arrays.fill(buckets.nodes(0), null);
        buckets.nodes(1)[0] = null;

        buckets.truncate(0, 0);
        buckets.truncate(1, 0);

        assertThat(buckets.nodes(0)).as("a burst's array is released").isNull();
        assertThat(buckets.nodes(1)).as("a small array is kept for reuse").isSameAs(small);
        buckets.append(0, node(1));
        assertThat(buckets.nodes(0)).hasSize(BucketArrays.INITIAL_CAPACITY);
    }

    @Test
    void dropCancelled_keepsThePendingInOrderAndClearsTheTail() {
        BucketArrays buckets = new BucketArrays(1);
        List<Long> pending = new ArrayList<>();
        for (long id = 0; id < 100; id++) {
            TimeoutNode node = node(id);
            buckets.append(0, node);
            if (id % 3 == 0) {
                node.tryCancelQuietly();
            } else {
                pending.add(id);
            }
        }

        int dropped = buckets.dropCancelled(0);

        assertThat(dropped).isEqualTo(34);
        assertThat(ids(buckets, 0)).isEqualTo(pending);
        assertThat(buckets.nodes(0)[pending.size()]).as("no stale reference after the kept nodes").isNull();
        buckets.checkBucket(0);
        assertThat(buckets.dropCancelled(0)).isZero();
    }

    private static void assertKeysFollowNodes(final BucketArrays buckets, final int bucket) {
        buckets.checkBucket(bucket);
        for (int i = 0; i < buckets.count(bucket); i++) {
            assertThat(buckets.keys(bucket)[i]).as("key at " + i)
                    .isEqualTo((int) (buckets.nodes(bucket)[i].deadlineNanos * 31));
        }
    }

    @Test
    void keyed_growthCompactionShrinkAndSalvage_keepEachKeyBesideItsNode() {
        BucketArrays buckets = new BucketArrays(2, true);
        List<TimeoutNode> nodes = new ArrayList<>();
        for (long id = 0; id < 3 * BucketArrays.KEEP_CAPACITY; id++) {
            TimeoutNode node = node(id);
            nodes.add(node);
            buckets.append(0, node, (int) (id * 31));
        }
        assertKeysFollowNodes(buckets, 0);

        for (int i = 0; i < nodes.size(); i++) {
            if (i % 5 != 0) {
                nodes.get(i).tryCancelQuietly();
            }
        }
        int dropped = buckets.dropCancelled(0);
        assertThat(dropped).isEqualTo(nodes.size() - (nodes.size() + 4) / 5);
        assertThat(buckets.nodes(0).length).as("shrunk after compaction").isLessThan(3 * BucketArrays.KEEP_CAPACITY);
        assertKeysFollowNodes(buckets, 0);

        // A walk that failed half-way puts the rest back, keys included, into an emptied bucket.
        TimeoutNode[] walked = buckets.nodes(0);
        int[] walkedKeys = buckets.keys(0);
        int count = buckets.count(0);
        buckets.truncate(0, 0);
        for (int i = 0; i < count / 2; i++) {
            walked[i] = null;
        }
        int restored = buckets.salvage(0, walked, walkedKeys, 0, count / 2, count);
        assertThat(restored).isEqualTo(count - count / 2);
        assertKeysFollowNodes(buckets, 0);
        assertThat(buckets.keys(1)).isNull();
        assertThat(new BucketArrays(1).keys(0)).as("an unkeyed instance has none").isNull();
    }
}
