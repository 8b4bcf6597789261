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
import org.openjdk.jcstress.infra.results.IIIIIIII_Result;

/**
 * Hazard: two threads stop the same running timer (a shutdown hook and an explicit close, say).
 * If both believed they owned the stop, both would collect the pending set and each timeout would
 * be returned, and told {@code cancelled()}, twice; if the loser did not wait for or defer to the
 * winner, a timeout could be returned by neither.
 *
 * <p>Setup: a started timer with T1 and T2 pending and T3 already cancelled. The rule: one
 * {@code stop()} returns {T1, T2}, the other an empty set; T3 is in neither; each of the three
 * timeouts was told {@code cancelled()} exactly once; and each actor sees {@code pendingTimeouts()}
 * at 0 when its own {@code stop()} returns: the loser too, so it must wait for the winner's drain
 * rather than return at once (SPEC.md: "after stop() returns, pendingTimeouts() is 0"). For both
 * timers.
 *
 * <p>Result: r1, r2 = size of each actor's set (-1 if its {@code stop()} threw), r3 = how many
 * times T1 or T2 appear across both sets, r4 = T3 appears, r5 = {@code cancelled()} calls on all
 * three, r6, r7 = {@code pendingTimeouts()} seen by each actor right after its {@code stop()},
 * r8 = {@code pendingTimeouts()} after both.
 */
@Outcome(id = "2, 0, 2, 0, 3, 0, 0, 0", expect = ACCEPTABLE, desc = "the first actor's stop() won")
@Outcome(id = "0, 2, 2, 0, 3, 0, 0, 0", expect = ACCEPTABLE, desc = "the second actor's stop() won")
@Outcome(expect = FORBIDDEN,
        desc = "a timeout returned twice or never, told twice, a stop() failed, or returned with timeouts counted")
@JCStressTest
@State
public class StopVsStop {

    private final WorkerGate gate = new WorkerGate();
    private final Timer timer;
    private final RecordingTask task = new RecordingTask();
    private final Timeout first;
    private final Timeout second;
    private final Timeout cancelled;
    private final Rendezvous rendezvous = new Rendezvous();
    private Set<Timeout> firstSet;
    private Set<Timeout> secondSet;

    /** Creates a state, on the next configuration in turn (see {@link Turns}). */
    public StopVsStop() {
        this(TimerKind.next());
    }

    StopVsStop(final TimerKind kind) {
        timer = kind.create(gate);
        first = timer.newTimeout(task, 1, TimeUnit.HOURS);
        second = timer.newTimeout(task, 1, TimeUnit.HOURS);
        cancelled = timer.newTimeout(task, 1, TimeUnit.HOURS);
        cancelled.cancel();
    }

    private Set<Timeout> stop() {
        gate.release();
        rendezvous.arrive();
        try {
            return timer.stop();
        } catch (RuntimeException failed) {
            return null;
        }
    }

    private static int count(final Set<Timeout> set, final Timeout timeout) {
        return set != null && set.contains(timeout) ? 1 : 0;
    }

    /**
     * Stops the timer.
     *
     * @param r the result
     */
    @Actor
    public void stopper1(final IIIIIIII_Result r) {
        firstSet = stop();
        r.r1 = firstSet == null ? -1 : firstSet.size();
        r.r6 = (int) timer.pendingTimeouts();
    }

    /**
     * Stops the timer.
     *
     * @param r the result
     */
    @Actor
    public void stopper2(final IIIIIIII_Result r) {
        secondSet = stop();
        r.r2 = secondSet == null ? -1 : secondSet.size();
        r.r7 = (int) timer.pendingTimeouts();
    }

    /**
     * Records the sets and the callbacks.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIIIIIII_Result r) {
        r.r3 = count(firstSet, first) + count(firstSet, second) + count(secondSet, first) + count(secondSet, second);
        r.r4 = count(firstSet, cancelled) + count(secondSet, cancelled);
        r.r5 = task.cancels();
        r.r8 = (int) timer.pendingTimeouts();
    }
}
