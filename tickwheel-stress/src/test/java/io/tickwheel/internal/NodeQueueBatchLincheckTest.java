package io.tickwheel.internal;

import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
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
 * <p>The shared operations and settings are in {@link NodeQueueLincheckBase}.
 */
public class NodeQueueBatchLincheckTest extends NodeQueueLincheckBase {

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

    @Test
    void modelChecking_isLinearizable() {
        modelCheck(NodeQueueBatchLincheckTest.class);
    }

    @Test
    void stress_isLinearizable() {
        stress(NodeQueueBatchLincheckTest.class);
    }
}
