package io.tickwheel.internal;

import io.tickwheel.stress.RecordingTask;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of the hand-off queue ({@link NodeQueue}) against a sequential FIFO queue
 * ({@link NodeQueueSpec}), with lincheck: many producers {@code offer}, one consumer
 * {@code poll}s and asks {@code isEmpty} (the {@code consumer} non-parallel group keeps those on
 * one thread, as the worker is), and anyone reads the counts.
 *
 * <p>Chunks hold 2 slots instead of 1024, so that every scenario of a few operations crosses chunk
 * boundaries: producers racing to link the next chunk, the consumer waiting for a chunk a
 * descheduled producer has claimed but not yet linked, and a late producer finding the chunk hint
 * already past its own chunk. Model checking explores those interleavings systematically, under
 * sequential consistency; jcstress ({@code HandOffPublication}) covers the memory-ordering half
 * (release/acquire on real hardware) with one producer and the production chunk size.
 *
 * <p>Settings (25 to 40 s in all on 2 busy cores): model checking, 3 threads, 30 scenarios of
 * 2 + 3x3 + 2 operations, up to 1,000 interleavings each; stress, the same shape, 30 scenarios
 * of 2,000 runs each.
 */
public class NodeQueueLincheckTest {

    /** log2 of the chunk size under test. */
    private static final int CHUNK_SHIFT = 1;

    private final NodeQueue queue = new NodeQueue(CHUNK_SHIFT);
    private final RecordingTask task = new RecordingTask();

    /**
     * Offers a node whose deadline carries {@code id}, so that polls can say which node they got.
     *
     * @param id the node's identity
     * @return the index the queue gave the node
     */
    @Operation
    public long offer(@Param(gen = IntGen.class, conf = "1:9") final int id) {
        return queue.offer(new TimeoutNode(null, task, id));
    }

    /**
     * Polls, as the worker does.
     *
     * @return the polled node's id, or null if the queue was empty
     */
    @Operation(nonParallelGroup = "consumer")
    public Long poll() {
        TimeoutNode node = queue.poll();
        return node == null ? null : node.deadlineNanos;
    }

    /**
     * Asks whether every claimed index was consumed, as the worker does.
     *
     * @return whether the queue is empty
     */
    @Operation(nonParallelGroup = "consumer")
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    /**
     * Reads the count of offers (the core's "scheduled" counter).
     *
     * @return the produced count
     */
    @Operation
    public long producedCount() {
        return queue.producedCount();
    }

    /**
     * Reads the count of polled nodes.
     *
     * @return the consumed count
     */
    @Operation
    public long consumedCount() {
        return queue.consumedCount();
    }

    @Test
    void modelChecking_isLinearizable() {
        new ModelCheckingOptions()
                .threads(3)
                .actorsBefore(2)
                .actorsPerThread(3)
                .actorsAfter(2)
                .iterations(30)
                .invocationsPerIteration(1_000)
                .sequentialSpecification(NodeQueueSpec.class)
                .check(NodeQueueLincheckTest.class);
    }

    @Test
    void stress_isLinearizable() {
        new StressOptions()
                .threads(3)
                .actorsBefore(2)
                .actorsPerThread(3)
                .actorsAfter(2)
                .iterations(30)
                .invocationsPerIteration(2_000)
                .sequentialSpecification(NodeQueueSpec.class)
                .check(NodeQueueLincheckTest.class);
    }
}
