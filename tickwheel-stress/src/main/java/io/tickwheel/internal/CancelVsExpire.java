package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.stress.RecordingTask;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: a caller's {@code cancel()} races the worker's expiry of the same timeout, at the level
 * of the timeout's state machine: {@link TimeoutNode#cancel()} against
 * {@link TimeoutNode#tryExpire()} followed by running the task, which is what the worker does with
 * a due node. Both are one CAS from {@code PENDING}. If either side decided from a plain read, or
 * if {@code cancel()} reported success without owning the transition, a task could run and also
 * be reported cancelled, or end neither run nor cancelled.
 *
 * <p>The rule: exactly one of run / {@code cancelled()} happens, once; {@code cancel()} returns
 * true iff the task never runs; the final state agrees. Both timers share this code; the same race
 * inside the real worker loop, per wheel, is {@link CancelVsWorkerExpire}.
 *
 * <p>Result: r1 = {@code cancel()} returned true (1/0), r2 = task runs, r3 = {@code cancelled()}
 * calls, r4 = final state (1 expired, 2 cancelled, 3 both, 0 neither).
 */
@JCStressTest
@State
@Outcome(id = "1, 0, 1, 2", expect = ACCEPTABLE, desc = "cancel() won: the task never ran, cancelled() was called once")
@Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE, desc = "expiry won: the task ran once, cancel() returned false")
@Outcome(expect = FORBIDDEN, desc = "both or neither happened, a callback ran twice, or the state disagrees")
public class CancelVsExpire {

    private final RecordingTask task = new RecordingTask();
    private final TimeoutNode node = new TimeoutNode(null, task, 0);

    /**
     * A caller cancels.
     *
     * @param r the result
     */
    @Actor
    public void caller(final IIII_Result r) {
        r.r1 = node.cancel() ? 1 : 0;
    }

    /** The worker expires the node and runs its task, as {@code Worker.expire} does. */
    @Actor
    public void worker() {
        if (node.tryExpire()) {
            node.runTask();
        }
    }

    /**
     * Records what happened to the task.
     *
     * @param r the result
     */
    @Arbiter
    public void outcome(final IIII_Result r) {
        r.r2 = task.runs();
        r.r3 = task.cancels();
        r.r4 = RecordingTask.stateOf(node);
    }
}
