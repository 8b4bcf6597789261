package io.tickwheel.internal;

import org.jetbrains.lincheck.datastructures.Operation;
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
 * <p>The shared operations and settings are in {@link NodeQueueLincheckBase}.
 */
public class NodeQueueLincheckTest extends NodeQueueLincheckBase {

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
        modelCheck(NodeQueueLincheckTest.class);
    }

    @Test
    void stress_isLinearizable() {
        stress(NodeQueueLincheckTest.class);
    }
}
