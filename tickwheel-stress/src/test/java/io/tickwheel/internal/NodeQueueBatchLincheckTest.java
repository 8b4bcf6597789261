package io.tickwheel.internal;

import io.tickwheel.stress.RecordingTask;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of the consumer's batched reads ({@link NodeQueue#pollBatch}, the worker's
 * transfer) against {@link NodeQueueSpec}, where a batch takes the oldest ids, up to its
 * {@code max} and not past the end of their chunk: many producers {@code offer}, one consumer
 * takes batches, {@code poll}s and asks {@code isEmpty}, and anyone reads {@code producedCount}.
 *
 * <p>Unlike {@link NodeQueueLincheckTest}, no thread reads {@code consumedCount}: a batch is
 * decided at its read of the producer index and published by its store of the consumer index,
 * and a {@code consumedCount} between the two still sees the old count (lincheck found this with
 * an {@code offer} in between). That count is only ever read for the backlog estimate, where a
 * count a batch behind only makes the worker look again sooner.
 *
 * <p>Chunks of 2 slots, as in {@link NodeQueueLincheckTest}, and the same settings.
 */
public class NodeQueueBatchLincheckTest {

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
     * Takes a batch, as the worker's transfer does.
     *
     * @param max the most to take
     * @return the taken nodes' ids, in order
     */
    @Operation(nonParallelGroup = "consumer")
    public List<Long> pollBatch(@Param(gen = IntGen.class, conf = "1:3") final int max) {
        TimeoutNode[] into = new TimeoutNode[max];
        int count = queue.pollBatch(into, max);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(into[i].deadlineNanos);
        }
        return ids;
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
                .check(NodeQueueBatchLincheckTest.class);
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
                .check(NodeQueueBatchLincheckTest.class);
    }
}
