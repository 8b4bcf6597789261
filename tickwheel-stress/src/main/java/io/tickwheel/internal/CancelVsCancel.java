package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.Timeout;
import io.tickwheel.stress.RecordingTask;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Hazard: two threads cancel the same pending timeout. If both believed they won, the task's
 * {@code cancelled()} would be called twice and the timer's cancel counter bumped twice, so
 * {@code pendingTimeouts()} would go one below the truth (here: negative); if neither won, the
 * timeout would stay pending although a caller cancelled it.
 *
 * <p>The rule: exactly one {@code cancel()} returns true, {@code cancelled()} is called once, the
 * timeout is cancelled and no longer counted. The timeout is still in the hand-off queue, as it is
 * right after {@code newTimeout}; cancel() never touches the wheel, so one test covers both timers.
 *
 * <p>Result: r1, r2 = each actor's {@code cancel()} (1/0), r3 = {@code cancelled()} calls,
 * r4 = {@code pendingTimeouts()}, r5 = final state (2 cancelled).
 */
@JCStressTest
@State
@Outcome(id = "1, 0, 1, 0, 2", expect = ACCEPTABLE, desc = "the first actor won, the second cancel() returned false")
@Outcome(id = "0, 1, 1, 0, 2", expect = ACCEPTABLE, desc = "the second actor won, the first cancel() returned false")
@Outcome(expect = FORBIDDEN, desc = "both or neither won, cancelled() called twice or not at all, or miscounted")
public class CancelVsCancel {

    private final WorkerRig rig = new WorkerRig(WorkerRig.Wheel.HASHED);
    private final RecordingTask task = new RecordingTask();
    private final Timeout timeout = rig.schedule(task, WorkerRig.FAR);

    /**
     * The first caller cancels.
     *
     * @param r the result
     */
    @Actor
    public void first(final IIIII_Result r) {
        r.r1 = timeout.cancel() ? 1 : 0;
    }

    /**
     * The second caller cancels.
     *
     * @param r the result
     */
    @Actor
    public void second(final IIIII_Result r) {
        r.r2 = timeout.cancel() ? 1 : 0;
    }

    /**
     * Records the callbacks, the count and the state.
     *
     * @param r the result
     */
    @Arbiter
    public void outcome(final IIIII_Result r) {
        r.r3 = task.cancels();
        r.r4 = (int) rig.pendingTimeouts();
        r.r5 = RecordingTask.stateOf(timeout);
    }
}
