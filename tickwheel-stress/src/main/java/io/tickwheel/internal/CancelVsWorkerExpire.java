package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.Timeout;
import io.tickwheel.stress.RecordingTask;
import io.tickwheel.stress.Turns;
import io.tickwheel.stress.Rendezvous;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Hazard: a caller cancels a due timeout while the real worker loop takes it from the hand-off
 * queue, links it into the wheel, advances the wheel past its deadline and expires it. The cancel
 * can land at four places: before the transfer (the worker must drop the node, not link it),
 * while it is linked (the wheel must skip it), between the wheel's "is it cancelled?" check and
 * the expiry CAS (the worker must see its CAS fail and neither run nor count the task), or after
 * the expiry (cancel() must return false). Each place has its own counting: a cancel is counted by
 * the canceller, an expiry by the worker, and a double count or a missed one shows in
 * {@code pendingTimeouts()} for the timer's whole life.
 *
 * <p>The rule: exactly one of run / {@code cancelled()} happens, once; {@code cancel()} returns true
 * iff the task never runs; the timeout is counted once, as retired by the worker or as cancelled by
 * the caller; the worker's exit drain finds nothing left. Runs on both wheels, in turn.
 *
 * <p>Result: r1 = {@code cancel()} (1/0), r2 = task runs, r3 = {@code cancelled()} calls,
 * r4 = the worker's retired counter, r5 = the callers' cancel counter, r6 = timeouts the exit drain
 * collected.
 */
@Outcome(id = "1, 0, 1, 0, 1, 0", expect = ACCEPTABLE,
        desc = "cancel() won (before the transfer, in the wheel, or before the expiry CAS): counted as cancelled")
@Outcome(id = "0, 1, 0, 1, 0, 0", expect = ACCEPTABLE,
        desc = "the worker expired it: ran once, counted as retired, cancel() returned false")
@Outcome(expect = FORBIDDEN, desc = "run and cancelled, neither, twice, miscounted, or left for the drain")
@JCStressTest
@State
public class CancelVsWorkerExpire {

    private final WorkerRig rig;
    private final RecordingTask task = new RecordingTask();
    private final Timeout timeout;
    private final Rendezvous rendezvous = new Rendezvous();

    /** Creates a state, on the next configuration in turn (see {@link Turns}). */
    public CancelVsWorkerExpire() {
        this(WorkerRig.Wheel.next());
    }

    CancelVsWorkerExpire(final WorkerRig.Wheel wheel) {
        rig = new WorkerRig(wheel);
        timeout = rig.schedule(task, 0);
    }

    /**
     * A caller cancels.
     *
     * @param r the result
     */
    @Actor
    public void caller(final IIIIII_Result r) {
        rendezvous.arrive();
        r.r1 = timeout.cancel() ? 1 : 0;
    }

    /** The worker runs one pass. */
    @Actor
    public void worker() {
        rendezvous.arrive();
        rig.runPass();
    }

    /**
     * Records callbacks and counters.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIIIII_Result r) {
        r.r2 = task.runs();
        r.r3 = task.cancels();
        r.r4 = (int) rig.retired();
        r.r5 = (int) rig.cancelCount();
        r.r6 = rig.drained().size();
    }
}
