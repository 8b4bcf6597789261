package io.tickwheel.internal;

import io.tickwheel.stress.RecordingTask;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * The operations and settings {@link NodeQueueLincheckTest} and {@link NodeQueueBatchLincheckTest}
 * share: a queue with chunks of 2 slots instead of 1024, so that every scenario of a few operations
 * crosses chunk boundaries; offers from any thread, polls and {@code isEmpty} from the consumer's
 * one thread, the produced count from any. Settings (25 to 40 s a class on 2 busy cores): model
 * checking, 3 threads, 30 scenarios of 2 + 3x3 + 2 operations, up to 1,000 interleavings each;
 * stress, the same shape, 30 scenarios of 2,000 runs each.
 */
public abstract class NodeQueueLincheckBase {

    /** log2 of the chunk size under test. */
    private static final int CHUNK_SHIFT = 1;

    /** The queue under test. */
    protected final NodeQueue queue = new NodeQueue(CHUNK_SHIFT);
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
     * Model checking of {@code test} against {@link NodeQueueSpec}.
     *
     * @param test the test class
     */
    static void modelCheck(final Class<?> test) {
        new ModelCheckingOptions()
                .threads(3)
                .actorsBefore(2)
                .actorsPerThread(3)
                .actorsAfter(2)
                .iterations(30)
                .invocationsPerIteration(1_000)
                .sequentialSpecification(NodeQueueSpec.class)
                .check(test);
    }

    /**
     * Stress testing of {@code test} against {@link NodeQueueSpec}.
     *
     * @param test the test class
     */
    static void stress(final Class<?> test) {
        new StressOptions()
                .threads(3)
                .actorsBefore(2)
                .actorsPerThread(3)
                .actorsAfter(2)
                .iterations(30)
                .invocationsPerIteration(2_000)
                .sequentialSpecification(NodeQueueSpec.class)
                .check(test);
    }
}
