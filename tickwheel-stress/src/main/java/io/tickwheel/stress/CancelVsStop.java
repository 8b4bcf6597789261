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
 * Hazard: a caller cancels a pending timeout while another thread stops the timer. The worker's
 * exit drain cancels every pending timeout on {@code stop()}'s behalf, with the same CAS as
 * {@code cancel()}. If the drain collected a timeout that a caller had just cancelled, or the
 * caller's cancel succeeded on one the drain had collected, {@code cancelled()} would be called
 * twice and the timeout both returned by {@code stop()} and reported cancelled by the caller.
 *
 * <p>The rule: either {@code cancel()} returns true and {@code stop()}'s set does not hold the
 * timeout, or {@code cancel()} returns false and the set holds it; {@code cancelled()} is called
 * once either way; the task never runs; {@code pendingTimeouts()} is 0 afterwards. For both timers, in turn.
 *
 * <p>Result: r1 = {@code cancel()} (1/0), r2 = size of {@code stop()}'s set (-1 if it threw),
 * r3 = the timeout is in it, r4 = {@code cancelled()} calls, r5 = runs, r6 = {@code pendingTimeouts()}.
 */
@Outcome(id = "1, 0, 0, 1, 0, 0", expect = ACCEPTABLE, desc = "cancel() won: stop() returned an empty set")
@Outcome(id = "0, 1, 1, 1, 0, 0", expect = ACCEPTABLE, desc = "stop() won: it returned the timeout, cancel() false")
@Outcome(expect = FORBIDDEN, desc = "both or neither won, told twice, run, stop() failed, or miscounted")
@JCStressTest
@State
public class CancelVsStop {

    private final WorkerGate gate = new WorkerGate();
    private final Timer timer;
    private final RecordingTask task = new RecordingTask();
    private final Timeout timeout;
    private final Rendezvous rendezvous = new Rendezvous();
    private Set<Timeout> returned;

    /** Creates a state, on the next configuration in turn (see {@link Turns}). */
    public CancelVsStop() {
        this(TimerKind.next());
    }

    CancelVsStop(final TimerKind kind) {
        timer = kind.create(gate);
        timeout = timer.newTimeout(task, 1, TimeUnit.HOURS);
    }

    /**
     * Cancels the timeout.
     *
     * @param r the result
     */
    @Actor
    public void caller(final IIIIII_Result r) {
        rendezvous.arrive();
        r.r1 = timeout.cancel() ? 1 : 0;
    }

    /**
     * Stops the timer.
     *
     * @param r the result
     */
    @Actor
    public void stopper(final IIIIII_Result r) {
        gate.release();
        rendezvous.arrive();
        try {
            returned = timer.stop();
            r.r2 = returned.size();
        } catch (RuntimeException failed) {
            r.r2 = -1;
        }
    }

    /**
     * Records the set and the callbacks.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIIIII_Result r) {
        r.r3 = returned != null && returned.contains(timeout) ? 1 : 0;
        r.r4 = task.cancels();
        r.r5 = task.runs();
        r.r6 = (int) timer.pendingTimeouts();
    }
}
