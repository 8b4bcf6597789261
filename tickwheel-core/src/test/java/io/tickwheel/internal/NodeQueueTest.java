package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The hand-off queue alone: order, counts, chunk boundaries, and many producers at once. */
class NodeQueueTest {

    private static TimeoutNode node(final long id) {
        return new TimeoutNode(null, t -> { }, id);
    }

    @Test
    void poll_empty_returnsNull() {
        NodeQueue queue = new NodeQueue();
        assertThat(queue.poll()).isNull();
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.producedCount()).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 1023, 1024, 1025, 5000})
    void offerThenPoll_singleThread_isFifoAcrossChunks(final int count) {
        NodeQueue queue = new NodeQueue();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < count; i++) {
                assertThat(queue.offer(node(i))).isEqualTo((long) round * count + i);
            }
            assertThat(queue.isEmpty()).isFalse();
            for (int i = 0; i < count; i++) {
                assertThat(queue.poll().deadlineNanos).isEqualTo(i);
            }
            assertThat(queue.poll()).isNull();
            assertThat(queue.isEmpty()).isTrue();
        }
        assertThat(queue.producedCount()).isEqualTo(3L * count);
        assertThat(queue.consumedCount()).isEqualTo(3L * count);
    }

    @Test
    // A hand-off bug makes the consumer wait forever for a slot; on a separate thread the timeout
    // fails the test instead of hanging the build.
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void offer_manyProducersWhileConsuming_deliversEachNodeOnceInPerProducerOrder() throws Exception {
        int producers = 4;
        int perProducer = 250_000;
        NodeQueue queue = new NodeQueue();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            long base = (long) p * perProducer;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < perProducer; i++) {
                    queue.offer(node(base + i));
                }
            });
            thread.start();
            threads.add(thread);
        }
        long[] next = new long[producers];
        for (int p = 0; p < producers; p++) {
            next[p] = (long) p * perProducer;
        }
        start.countDown();
        long received = 0;
        while (received < (long) producers * perProducer) {
            TimeoutNode node = queue.poll();
            if (node == null) {
                Thread.onSpinWait();
                continue;
            }
            int producer = (int) (node.deadlineNanos / perProducer);
            assertThat(node.deadlineNanos).as("producer %d out of order or duplicated", producer)
                    .isEqualTo(next[producer]);
            next[producer]++;
            received++;
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(queue.poll()).isNull();
        assertThat(queue.producedCount()).isEqualTo((long) producers * perProducer);
        for (int p = 0; p < producers; p++) {
            assertThat(next[p]).isEqualTo((long) (p + 1) * perProducer);
        }
    }
}
