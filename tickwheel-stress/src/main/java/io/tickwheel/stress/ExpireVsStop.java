package io.tickwheel.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Hazard: the timer's own worker thread expires a due timeout while a caller stops the timer.
 * The worker may be inside a pass when the stop request lands: it finishes expiring what is due
 * and then drains the rest; or it sees the request first and only drains. A timeout expired in
 * the pass and also collected by the drain would be run and returned (and told {@code cancelled()});
 * one skipped by both would be lost.
 *
 * <p>The stopper releases the worker thread, waits until it is entering its loop, and stops the
 * timer at once, so the stop request lands anywhere in the worker's first pass. There is one
 * actor; the other side of the race is the timer's real worker thread.
 *
 * <p>The rule: the timeout either ran once and is not in {@code stop()}'s set, or is in the set,
 * cancelled and told once, and never ran; {@code pendingTimeouts()} is 0 afterwards. For both
 * timers.
 *
 * <p>Result: r1 = size of {@code stop()}'s set (-1 if it threw), r2 = the timeout is in it,
 * r3 = runs, r4 = {@code cancelled()} calls, r5 = state (1 expired, 2 cancelled),
 * r6 = {@code pendingTimeouts()}.
 */
@Outcome(id = "0, 0, 1, 0, 1, 0", expect = ACCEPTABLE, desc = "the worker expired it before stopping: ran once")
@Outcome(id = "1, 1, 0, 1, 2, 0", expect = ACCEPTABLE, desc = "stop() came first: returned, cancelled, told once")
@Outcome(expect = FORBIDDEN, desc = "run and returned, neither, told twice, stop() failed, or miscounted")
@JCStressTest
@State
public class ExpireVsStop {

    private final WorkerGate gate = new WorkerGate();
    private final Timer timer;
    private final RecordingTask task = new RecordingTask();
    private final Timeout timeout;

    /** Creates a state, on the next configuration in turn (see {@link Turns}). */
    public ExpireVsStop() {
        this(TimerKind.next());
    }

    ExpireVsStop(final TimerKind kind) {
        timer = kind.create(gate);
        timeout = timer.newTimeout(task, 0, TimeUnit.NANOSECONDS);
    }

    /**
     * Starts the worker and stops the timer.
     *
     * @param r the result
     */
    @Actor
    public void stopper(final IIIIII_Result r) {
        gate.release();
        gate.awaitRunning();
        try {
            Set<Timeout> returned = timer.stop();
            r.r1 = returned.size();
            r.r2 = returned.contains(timeout) ? 1 : 0;
        } catch (RuntimeException failed) {
            r.r1 = -1;
        }
    }

    /**
     * Records what became of the timeout.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIIIII_Result r) {
        r.r3 = task.runs();
        r.r4 = task.cancels();
        r.r5 = RecordingTask.stateOf(timeout);
        r.r6 = (int) timer.pendingTimeouts();
    }
}
