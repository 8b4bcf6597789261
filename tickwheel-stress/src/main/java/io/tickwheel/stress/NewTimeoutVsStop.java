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
 * Hazard: {@code newTimeout} on one thread while another calls {@code stop()}. The new timeout's
 * node may reach the hand-off queue before the worker's exit drain (the drain must cancel it and
 * {@code stop()} must return it), after it (nobody will ever look at the queue again: the caller
 * must cancel it itself and refuse the call), or while the drain is running. Netty's timer has
 * shipped with a race of this kind that loses the timeout: accepted, never run, never returned,
 * and counted pending forever. With a timer not yet started the race is also one of starting against stopping: the
 * first {@code newTimeout} starts the worker thread while {@code stop()} may already wait for it.
 *
 * <p>The rule: the timeout is either refused with {@link IllegalStateException} (and never told
 * anything, since the caller never got it), or it is in {@code stop()}'s set, cancelled, and told
 * once through {@code cancelled()}; it never runs; {@code stop()} completes normally; afterwards
 * {@code pendingTimeouts()} is 0. For both timers, started or not, in turn.
 *
 * <p>Result: r1 = {@code newTimeout} returned (1) or threw {@code IllegalStateException} (0),
 * r2 = size of {@code stop()}'s set (-1 if {@code stop()} threw), r3 = the timeout is in that set,
 * r4 = its state (-1 none, 0 pending, 1 expired, 2 cancelled), r5 = {@code cancelled()} calls,
 * r6 = runs, r7 = {@code pendingTimeouts()} afterwards.
 */
@Outcome(id = "1, 1, 1, 2, 1, 0, 0", expect = ACCEPTABLE,
        desc = "newTimeout() won: stop() returned the timeout, cancelled and told once")
@Outcome(id = "0, 0, 0, -1, 0, 0, 0", expect = ACCEPTABLE,
        desc = "stop() won: newTimeout() threw IllegalStateException")
@Outcome(expect = FORBIDDEN, desc = "the timeout was lost, run, told twice, or stop() failed")
@JCStressTest
@State
public class NewTimeoutVsStop {

    private final WorkerGate gate = new WorkerGate();
    private final Timer timer;
    private final RecordingTask task = new RecordingTask();
    private final Rendezvous rendezvous = new Rendezvous();
    private Timeout timeout;
    private Set<Timeout> returned;

    private static final Turns TURNS = new Turns();

    /**
     * Creates a state, on the next configuration in turn (see {@link Turns}): each timer kind,
     * started (the race is with the running worker) and unstarted (with the first start).
     */
    public NewTimeoutVsStop() {
        this(TURNS.next(4));
    }

    private NewTimeoutVsStop(final int turn) {
        this(turn % 2 == 0 ? TimerKind.HASHED : TimerKind.HIERARCHICAL, turn < 2);
    }

    NewTimeoutVsStop(final TimerKind kind, final boolean started) {
        timer = kind.create(gate);
        if (started) {
            TimerKind.start(timer);
        }
    }

    /**
     * Schedules a timeout an hour out.
     *
     * @param r the result
     */
    @Actor
    public void caller(final IIIIIII_Result r) {
        rendezvous.arrive();
        try {
            timeout = timer.newTimeout(task, 1, TimeUnit.HOURS);
            r.r1 = 1;
        } catch (IllegalStateException refused) {
            r.r1 = 0;
        }
    }

    /**
     * Stops the timer.
     *
     * @param r the result
     */
    @Actor
    public void stopper(final IIIIIII_Result r) {
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
     * Records what became of the timeout.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIIIIII_Result r) {
        r.r3 = timeout != null && returned != null && returned.contains(timeout) ? 1 : 0;
        r.r4 = timeout == null ? -1 : RecordingTask.stateOf(timeout);
        r.r5 = task.cancels();
        r.r6 = task.runs();
        r.r7 = (int) timer.pendingTimeouts();
    }
}
