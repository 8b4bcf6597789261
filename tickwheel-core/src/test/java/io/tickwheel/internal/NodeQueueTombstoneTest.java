package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cancelled node's queue slot takes the shared tombstone, so the worker's purge need not load
 * the node ({@link NodeQueue}'s "Tombstones"), and the state word keeps the node's place beside
 * its state ({@link TimeoutNode}); and the consumer's batched reads ({@link NodeQueue#pollBatch}).
 */
class NodeQueueTombstoneTest {

    private static TimeoutNode node(final long id) {
        return new TimeoutNode(null, t -> { }, id);
    }

    /** Cancels {@code node} as a canceller does: the CAS, then the tombstone at the place it saw. */
    private static boolean cancel(final NodeLanes lanes, final TimeoutNode node) {
        int place = node.place();
        if (!node.tryCancelQuietly()) {
            return false;
        }
        lanes.tombstone(node, place);
        return true;
    }

    private static List<TimeoutNode> pollAll(final NodeQueue queue) {
        List<TimeoutNode> polled = new ArrayList<>();
        TimeoutNode next;
        while ((next = queue.poll()) != null) {
            polled.add(next);
        }
        return polled;
    }

    @Test
    void cancel_queuedNode_itsSlotHoldsTheTombstone_andNoOtherSlotChanges() {
        NodeLanes lanes = new NodeLanes(4);
        List<TimeoutNode> nodes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            nodes.add(node(i));
            lanes.lane(2).offer(nodes.get(i));
            lanes.lane(1).offer(node(100 + i)); // another lane, whose slots at the same indexes must not change
        }

        assertThat(cancel(lanes, nodes.get(2))).isTrue();

        assertThat(pollAll(lanes.lane(2))).containsExactly(nodes.get(0), nodes.get(1), NodeQueue.TOMBSTONE,
                nodes.get(3), nodes.get(4));
        assertThat(pollAll(lanes.lane(1))).extracting(n -> n.deadlineNanos)
                .containsExactly(100L, 101L, 102L, 103L, 104L);
        assertThat(NodeQueue.TOMBSTONE.isCancelled()).isTrue();
        assertThat(NodeQueue.TOMBSTONE.tryExpire()).isFalse();
        assertThat(nodes.get(2).isCancelled()).isTrue();
    }

    @Test
    void cancel_afterTheNodeWasPolled_nothingIsReadAgain() {
        NodeLanes lanes = new NodeLanes(1);
        TimeoutNode first = node(1);
        TimeoutNode second = node(2);
        lanes.lane(0).offer(first);
        lanes.lane(0).offer(second);
        assertThat(lanes.lane(0).poll()).isSameAs(first);

        assertThat(cancel(lanes, first)).isTrue(); // its tombstone, if any, lands in a consumed slot

        assertThat(pollAll(lanes.lane(0))).containsExactly(second);
        assertThat(lanes.lane(0).isEmpty()).isTrue();
    }

    @Test
    void cancel_ofANodeWhoseChunkLeftTheRing_leavesTheNodeInItsSlot() {
        NodeLanes lanes = new NodeLanes(1);
        NodeQueue queue = lanes.lane(0);
        TimeoutNode oldest = node(-1);
        queue.offer(oldest);
        // 64 more chunks: chunk 64 takes chunk 0's entry in the ring.
        int more = 64 * 1024;
        for (int i = 0; i < more; i++) {
            queue.offer(node(i));
        }

        assertThat(cancel(lanes, oldest)).isTrue();

        TimeoutNode polled = queue.poll();
        assertThat(polled).isSameAs(oldest); // no tombstone: the worker drops it as a cancelled node
        assertThat(polled.isCancelled()).isTrue();
        assertThat(pollAll(queue)).hasSize(more).doesNotContain(NodeQueue.TOMBSTONE);
    }

    @Test
    void tombstone_withAnotherNodesPlace_changesNothing() {
        NodeLanes lanes = new NodeLanes(2);
        TimeoutNode a = node(1);
        TimeoutNode b = node(2);
        lanes.lane(1).offer(a);
        lanes.lane(1).offer(b);
        assertThat(a.tryCancelQuietly()).isTrue();

        lanes.tombstone(a, b.place()); // a stale or wrong place finds another node: no write
        lanes.tombstone(a, 0); // none
        lanes.tombstone(new TimeoutNode(null, t -> { }, 3), a.place()); // a node that was never there

        assertThat(pollAll(lanes.lane(1))).containsExactly(a, b);
    }

    @Test
    void place_isKeptAcrossEveryTransition_andAnUnqueuedNodeHasNone() {
        NodeLanes lanes = new NodeLanes(4);
        TimeoutNode expired = node(1);
        TimeoutNode cancelled = node(2);
        lanes.lane(3).offer(expired);
        lanes.lane(3).offer(cancelled);
        int expiredPlace = expired.place();
        int cancelledPlace = cancelled.place();
        assertThat(expiredPlace).isNotZero().isNotEqualTo(cancelledPlace);

        assertThat(expired.tryExpire()).isTrue();
        assertThat(cancelled.tryCancelQuietly()).isTrue();

        assertThat(expired.isExpired()).isTrue();
        assertThat(expired.isCancelled()).isFalse();
        assertThat(expired.place()).isEqualTo(expiredPlace);
        assertThat(cancelled.isCancelled()).isTrue();
        assertThat(cancelled.isExpired()).isFalse();
        assertThat(cancelled.place()).isEqualTo(cancelledPlace);
        assertThat(expired.tryCancelQuietly()).isFalse();
        assertThat(cancelled.tryExpire()).isFalse();
        assertThat(node(3).place()).isZero();
    }

    @Test
    void placeOf_wrapsToNone_orToAnEarlierIndexWhoseSlotTheIdentityCheckRejects() {
        // 30 bits: the lane below, the index's low bits above, plus one so that 0 means none.
        assertThat(NodeQueue.placeOf(0, 15, 4)).isEqualTo(16);
        assertThat(NodeQueue.placeOf(5, 3, 2)).isEqualTo((5 << 2 | 3) + 1);
        assertThat(NodeQueue.placeOf((1L << 26) - 1, 15, 4)).as("the largest wraps to none").isZero();
        assertThat(NodeQueue.placeOf(1L << 26, 15, 4)).as("2^26 offers later: index 0's place")
                .isEqualTo(NodeQueue.placeOf(0, 15, 4));
        assertThat(NodeQueue.placeOf((1L << 30) + 7, 0, 0)).isEqualTo(8);
        assertThat(NodeQueue.placeOf(Long.MAX_VALUE, 1, 1)).isBetween(0, (1 << 30) - 1);
    }

    @Test
    void leavePending_fromAWordReadWithoutItsPlace_retriesAndKeepsThePlace() {
        // What a canceller that got the node through a data race may read: the word before the
        // producer's place. Its CAS fails on the place, and it must retry, not give up.
        NodeLanes lanes = new NodeLanes(4);
        TimeoutNode n = node(1);
        lanes.lane(1).offer(n);
        int place = n.place();
        assertThat(place).isNotZero();

        assertThat(n.leavePending(0, TimeoutNode.CANCELLED)).isEqualTo(place << TimeoutNode.STATE_BITS);

        assertThat(n.isCancelled()).isTrue();
        assertThat(n.place()).isEqualTo(place);
        assertThat(n.leavePending(0, TimeoutNode.EXPIRED)).as("no longer pending").isEqualTo(-1);
        assertThat(n.isExpired()).isFalse();
    }

    @Test
    void pollBatch_takesInOrder_upToMax_andStopsAtTheChunksEnd() {
        NodeQueue queue = new NodeQueue();
        List<TimeoutNode> offered = new ArrayList<>();
        for (int i = 0; i < 1100; i++) {
            TimeoutNode n = node(i);
            offered.add(n);
            queue.offer(n);
        }
        TimeoutNode[] into = new TimeoutNode[64];
        List<TimeoutNode> taken = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        assertThat(queue.pollBatch(into, 0)).isZero();
        int count = queue.pollBatch(into, 10);
        while (count > 0) {
            counts.add(count);
            taken.addAll(Arrays.asList(into).subList(0, count));
            count = queue.pollBatch(into, 64);
        }
        // 10, then 1014 left in the first chunk: 15 of 64 and 54 up to its end; then 76 in the next.
        List<Integer> expected = new ArrayList<>(List.of(10));
        for (int i = 0; i < 15; i++) {
            expected.add(64);
        }
        expected.addAll(List.of(54, 64, 12));
        assertThat(counts).containsExactlyElementsOf(expected);
        assertThat(taken).containsExactlyElementsOf(offered);
        assertThat(queue.consumedCount()).isEqualTo(1100);
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.poll()).isNull();
    }

    @Test
    void pollBatch_aThrowBeforeItsIndexStore_leavesTheQueueAsItWas() {
        // Every slot is read before any is cleared or the index moves, so a throw in the reads (here
        // an array too small; in production an Error in the wait for a slot) takes nothing.
        NodeQueue queue = new NodeQueue();
        TimeoutNode a = node(1);
        TimeoutNode b = node(2);
        queue.offer(a);
        queue.offer(b);
        TimeoutNode[] tooSmall = new TimeoutNode[1];
        assertThatThrownBy(() -> queue.pollBatch(tooSmall, 2)).isInstanceOf(ArrayIndexOutOfBoundsException.class);

        assertThat(tooSmall[0]).as("not left where the final drain would find it twice").isNull();
        assertThat(queue.consumedCount()).isZero();
        assertThat(pollAll(queue)).containsExactly(a, b);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void cancelsRacingTheConsumer_eachNodeEndsOnce_andNoTombstoneHidesALiveNode() throws Exception {
        // Producer and canceller on one thread (as request timeouts are), the consumer on another
        // taking batches as the worker does: every node not cancelled must reach the consumer, and
        // every tombstone it sees stands for a cancel that succeeded.
        int total = 300_000;
        NodeLanes lanes = new NodeLanes(2);
        NodeQueue queue = lanes.lane(1);
        long[] live = new long[1];
        long[] tombstones = new long[1];
        long[] cancelledSeen = new long[1];
        CountDownLatch halfway = new CountDownLatch(1);
        Thread consumer = new Thread(() -> {
            TimeoutNode[] into = new TimeoutNode[64];
            try {
                halfway.await(); // the first half's cancels find their nodes queued
            } catch (InterruptedException e) {
                return;
            }
            long seen = 0;
            while (seen < total) {
                int count = queue.pollBatch(into, 64);
                for (int k = 0; k < count; k++) {
                    TimeoutNode n = into[k];
                    if (n == NodeQueue.TOMBSTONE) {
                        tombstones[0]++;
                    } else if (n.tryExpire()) {
                        live[0]++;
                    } else {
                        cancelledSeen[0]++;
                    }
                }
                seen += count;
                if (count == 0) {
                    Thread.onSpinWait();
                }
            }
        });
        consumer.start();
        TimeoutNode[] ring = new TimeoutNode[1000];
        long cancelled = 0;
        for (int i = 0; i < total; i++) {
            TimeoutNode old = ring[i % ring.length];
            if (old != null && (i & 1) == 0 && cancel(lanes, old)) {
                cancelled++;
            }
            TimeoutNode n = node(i);
            queue.offer(n);
            ring[i % ring.length] = n;
            if (i == total / 2) {
                halfway.countDown();
            }
        }
        consumer.join();

        assertThat(live[0] + tombstones[0] + cancelledSeen[0]).isEqualTo(total);
        assertThat(tombstones[0] + cancelledSeen[0]).isEqualTo(cancelled);
        assertThat(tombstones[0]).as("the first half's cancels, at least").isGreaterThan(total / 8);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void producersRacingBatchReads_eachNodeArrivesOnce_inEachProducersOrder() throws Exception {
        int producers = 3;
        int perProducer = 200_000;
        NodeQueue queue = new NodeQueue();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            long base = (long) p * perProducer;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    queue.offer(node(base + i));
                }
            });
            threads.add(thread);
            thread.start();
        }
        long[] next = new long[producers];
        for (int p = 0; p < producers; p++) {
            next[p] = (long) p * perProducer;
        }
        TimeoutNode[] into = new TimeoutNode[64];
        long seen = 0;
        while (seen < (long) producers * perProducer) {
            int count = queue.pollBatch(into, 1 + (int) (seen % 64));
            for (int k = 0; k < count; k++) {
                long id = into[k].deadlineNanos;
                int p = (int) (id / perProducer);
                assertThat(id).as("producer %d's next node", p).isEqualTo(next[p]);
                next[p]++;
            }
            seen += count;
            if (count == 0) {
                Thread.onSpinWait();
            }
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(queue.poll()).isNull();
        assertThat(queue.consumedCount()).isEqualTo((long) producers * perProducer);
    }

}
