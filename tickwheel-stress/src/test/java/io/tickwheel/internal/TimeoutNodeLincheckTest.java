package io.tickwheel.internal;

import io.tickwheel.stress.RecordingTask;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The timeout state machine ({@link TimeoutNode}: pending, then expired or cancelled, by one CAS)
 * checked with lincheck against {@link TimeoutNodeSpec}: callers {@code cancel()} from any thread;
 * the worker (the {@code worker} non-parallel group, one thread) expires the node and runs its
 * task, or cancels it quietly as its drain on stop does; anyone reads the state.
 *
 * <p>Linearizability covers the return values and state reads. The callbacks happen after the
 * CAS, outside it, so they are checked by {@link #exactlyOnce()} after each run instead: the node
 * ended at most once, and exactly one of run / {@code cancelled()} / quiet cancel matches its
 * state.
 *
 * <p>jcstress ({@code CancelVsExpire}, {@code CancelVsCancel}) already covers the two-actor races
 * on real hardware, with its weak memory effects; this adds every interleaving of three threads
 * running several calls each. Model checking only: the state machine is one CAS, so the systematic
 * search settles it, and a stress run found a non-CAS write only after a minute.
 * Settings (5 to 25 s on 2 busy cores): 3 threads, 20 scenarios of 1 + 3x3 + 1 operations,
 * up to 300 interleavings each.
 */
public class TimeoutNodeLincheckTest {

    private final RecordingTask task = new RecordingTask();
    private final TimeoutNode node = new TimeoutNode(null, task, 0);
    /** Successful quiet cancels; the worker's drain counts these itself, so the task never hears. */
    private final AtomicInteger quietCancels = new AtomicInteger();

    /**
     * A caller cancels.
     *
     * @return what {@code cancel()} returned
     */
    @Operation
    public boolean cancel() {
        return node.cancel();
    }

    /**
     * The worker expires the node and runs its task, as {@code Worker} does with a due node.
     *
     * @return whether this call expired it
     */
    @Operation(nonParallelGroup = "worker")
    public boolean expire() {
        if (!node.tryExpire()) {
            return false;
        }
        node.runTask();
        return true;
    }

    /**
     * The worker's drain on stop cancels the node without a callback.
     *
     * @return whether this call cancelled it
     */
    @Operation(nonParallelGroup = "worker")
    public boolean cancelQuietly() {
        if (!node.tryCancelQuietly()) {
            return false;
        }
        quietCancels.incrementAndGet();
        return true;
    }

    /**
     * Reads the state.
     *
     * @return {@code isCancelled()}
     */
    @Operation
    public boolean isCancelled() {
        return node.isCancelled();
    }

    /**
     * Reads the state.
     *
     * @return {@code isExpired()}
     */
    @Operation
    public boolean isExpired() {
        return node.isExpired();
    }

    /** After each run: the node ended at most once, and its one ending matches its state. */
    @Validate
    public void exactlyOnce() {
        boolean expired = node.isExpired();
        boolean cancelled = node.isCancelled();
        int runs = task.runs();
        int cancels = task.cancels() + quietCancels.get();
        if ((expired && cancelled) || runs != (expired ? 1 : 0) || cancels != (cancelled ? 1 : 0)) {
            throw new IllegalStateException("expired " + expired + ", cancelled "
                    + cancelled + ", runs " + runs + ", cancelled() calls " + task.cancels()
                    + ", quiet cancels " + quietCancels.get());
        }
    }

    @Test
    void modelChecking_isLinearizableAndEndsOnce() {
        new ModelCheckingOptions()
                .threads(3)
                .actorsBefore(1)
                .actorsPerThread(3)
                .actorsAfter(1)
                .iterations(20)
                .invocationsPerIteration(300)
                .sequentialSpecification(TimeoutNodeSpec.class)
                .check(TimeoutNodeLincheckTest.class);
    }
}
