package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.Timeout;
import io.tickwheel.TimerTask;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Hazard: the hand-off queue ({@link NodeQueue}) publishes nodes from scheduling threads to the
 * worker. A producer claims an index with an atomic add and then release-stores the node into the
 * index's slot; the consumer acquire-loads the slot, and waits when an index is claimed but its
 * slot not yet filled. Get that wrong and the worker sees a node whose task is not yet written,
 * takes a slot twice, skips one, or (at a chunk boundary, where the producer links a new chunk
 * while the consumer may be waiting for it) loses the chunk.
 *
 * <p>A node's own fields are final, which the JMM publishes even without the queue's help, so the
 * test also writes a plain field of the task <em>after</em> the node is built and before
 * {@code offer}: only the queue's release/acquire pair makes that write visible to the consumer.
 *
 * <p>The producer offers n1 (deadline 1, payload 1) then n2 (2, 2); the consumer polls twice;
 * the arbiter polls three more times. Each poll is encoded as 0 for none, else
 * {@code deadline * 10 + payload}: 11 for n1, 22 for n2, 10 or 20 for a node whose payload was
 * not yet visible.
 *
 * <p>The rule: the consumer sees a prefix of [n1, n2], each with its payload, possibly after an
 * empty poll (nothing claimed yet); the arbiter gets the rest in order, then nothing.
 */
@Outcome(id = "0, 0, 11, 22, 0", expect = ACCEPTABLE, desc = "the consumer polled before the first claim")
@Outcome(id = "0, 11, 22, 0, 0", expect = ACCEPTABLE, desc = "the consumer's first poll was empty, its second got n1")
@Outcome(id = "11, 0, 22, 0, 0", expect = ACCEPTABLE, desc = "the consumer got n1, then polled before n2's claim")
@Outcome(id = "11, 22, 0, 0, 0", expect = ACCEPTABLE, desc = "the consumer got both")
@Outcome(expect = FORBIDDEN, desc = "a stale payload, a node lost, duplicated or out of order")
public abstract class HandOffPublication {

    private final NodeQueue queue = new NodeQueue();

    HandOffPublication(final int consumedBefore) {
        TimeoutNode filler = new TimeoutNode(null, new Payload(), 0);
        for (int i = 0; i < consumedBefore; i++) {
            queue.offer(filler);
            queue.poll();
        }
    }

    final void produce() {
        offer(1);
        offer(2);
    }

    private void offer(final int value) {
        Payload payload = new Payload();
        TimeoutNode node = new TimeoutNode(null, payload, value);
        payload.value = value;
        queue.offer(node);
    }

    final void consume(final IIIII_Result r) {
        r.r1 = poll();
        r.r2 = poll();
    }

    final void drain(final IIIII_Result r) {
        r.r3 = poll();
        r.r4 = poll();
        r.r5 = poll();
    }

    private int poll() {
        TimeoutNode node = queue.poll();
        return node == null ? 0 : (int) node.deadlineNanos * 10 + ((Payload) node.task()).value;
    }

    /** A task with a plain field, written after the node is built. */
    private static final class Payload implements TimerTask {
        int value;

        @Override
        public void run(final Timeout timeout) {
            // Never run: the test only hands the node over.
        }
    }

    /** Both offers in the queue's first chunk. */
    @JCStressTest
    @State
    public static class SameChunk extends HandOffPublication {
        /** Creates an empty queue. */
        public SameChunk() {
            super(0);
        }

        /** Offers n1 and n2. */
        @Actor
        public void producer() {
            produce();
        }

        /**
         * Polls twice.
         *
         * @param r the result
         */
        @Actor
        public void consumer(final IIIII_Result r) {
            consume(r);
        }

        /**
         * Polls what is left.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIIII_Result r) {
            drain(r);
        }
    }

    /**
     * n1 in the last slot of the first chunk, n2 in the first slot of a chunk its producer must
     * create and link. Chunks hold 1024 nodes ({@code 1 << NodeQueue.CHUNK_SHIFT}).
     */
    @JCStressTest
    @State
    public static class AcrossChunks extends HandOffPublication {
        /** Creates a queue whose next offer takes the first chunk's last slot. */
        public AcrossChunks() {
            super(1023);
        }

        /** Offers n1 and n2. */
        @Actor
        public void producer() {
            produce();
        }

        /**
         * Polls twice.
         *
         * @param r the result
         */
        @Actor
        public void consumer(final IIIII_Result r) {
            consume(r);
        }

        /**
         * Polls what is left.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIIII_Result r) {
            drain(r);
        }
    }
}
