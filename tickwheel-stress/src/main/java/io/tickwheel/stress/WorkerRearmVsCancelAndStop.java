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
import org.openjdk.jcstress.infra.results.IIIIIII_Result;

/**
 * Hazard: a task running on the worker thread re-arms (schedules a child timeout, as a heartbeat
 * does). That schedule skips the hand-off lanes: the child waits in the worker's own lane until
 * the worker links it before parking, and it is counted in the lane's own "scheduled" cell. Meanwhile
 * another thread, which got the child from the task, cancels it, and a third calls {@code stop()}.
 * Get it wrong and the child is lost (in the own lane when the worker exits, so never drained and
 * never returned), ends twice (cancelled by the caller and returned by {@code stop()}), or is
 * counted wrong ({@code pendingTimeouts()} not 0 after {@code stop()}).
 *
 * <p>The parent is due at once; {@code stop()} starts only once the parent has started running,
 * so it races the child's schedule, its publication and its cancel.
 *
 * <p>The rule: either the child's schedule was refused ({@code stop()} came first), or the child is
 * cancelled exactly once, by the caller's winning {@code cancel()} or by being in {@code stop()}'s
 * set, never both, told once, never run; afterwards {@code pendingTimeouts()} is 0. For both
 * timers in turn.
 *
 * <p>Result: r1 = the caller's {@code cancel()} (1 true, 0 false, -1 no child to cancel), r2 = the
 * child was scheduled (1) or refused (0), r3 = the child is in {@code stop()}'s set, r4 = its state
 * (-1 none, 0 pending, 1 expired, 2 cancelled), r5 = its {@code cancelled()} calls, r6 = its runs,
 * r7 = {@code pendingTimeouts()} afterwards.
 */
@Outcome(id = "1, 1, 0, 2, 1, 0, 0", expect = ACCEPTABLE, desc = "the caller's cancel won; stop() did not return it")
@Outcome(id = "0, 1, 1, 2, 1, 0, 0", expect = ACCEPTABLE, desc = "stop() drained the child first; the cancel lost")
@Outcome(id = "-1, 0, 0, -1, 0, 0, 0", expect = ACCEPTABLE, desc = "stop() came first: the re-arm was refused")
@Outcome(expect = FORBIDDEN, desc = "the child was lost, ended twice, ran, or the count is off")
@JCStressTest
@State
public class WorkerRearmVsCancelAndStop {

    private static final Turns TURNS = new Turns();

    private final WorkerGate gate = new WorkerGate();
    private final Timer timer;
    private final RecordingTask childTask = new RecordingTask();
    private final Rendezvous rendezvous = new Rendezvous();
    private volatile boolean parentStarted;
    private volatile boolean refused;
    private volatile Timeout child;
    private volatile boolean stopDone;
    private Set<Timeout> returned;

    /** Creates a started timer of the next kind in turn, with the parent due at once. */
    public WorkerRearmVsCancelAndStop() {
        timer = (TURNS.next(2) == 0 ? TimerKind.HASHED : TimerKind.HIERARCHICAL).create(gate);
        timer.newTimeout(parent -> {
            parentStarted = true;
            try {
                child = parent.timer().newTimeout(childTask, 1, TimeUnit.HOURS);
            } catch (IllegalStateException stopped) {
                refused = true;
            }
        }, 0, TimeUnit.MILLISECONDS);
    }

    /**
     * Cancels the child as soon as the parent hands it over, unless stop() ended first.
     *
     * @param r the result
     */
    @Actor
    public void canceller(final IIIIIII_Result r) {
        gate.release();
        rendezvous.arrive();
        int step = 0;
        Timeout seen;
        while ((seen = child) == null && !refused && !stopDone) {
            Spin.pause(++step);
        }
        if (seen == null) {
            seen = child; // stop() has returned: the parent, if it armed the child, is done
        }
        r.r1 = seen == null ? -1 : seen.cancel() ? 1 : 0;
    }

    /**
     * Stops the timer once the parent runs.
     *
     * @param r the result
     */
    @Actor
    public void stopper(final IIIIIII_Result r) {
        rendezvous.arrive();
        int step = 0;
        while (!parentStarted) {
            Spin.pause(++step);
        }
        returned = timer.stop();
        stopDone = true;
    }

    /**
     * Records what became of the child.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIIIIII_Result r) {
        Timeout made = child;
        r.r2 = made != null ? 1 : 0;
        r.r3 = made != null && returned.contains(made) ? 1 : 0;
        r.r4 = made == null ? -1 : RecordingTask.stateOf(made);
        r.r5 = childTask.cancels();
        r.r6 = childTask.runs();
        r.r7 = (int) timer.pendingTimeouts();
    }
}
