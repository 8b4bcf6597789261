package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.Timeout;
import io.tickwheel.stress.RecordingTask;
import io.tickwheel.stress.Rendezvous;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: the worker thread's {@code Thread.start()} fails (no native thread left) after a
 * producer that saw the timer started offered a timeout, while a {@code stop()} (a shutdown hook,
 * say) comes in. The failed start drains the queue and tells what it drained; the stop() waits
 * for that drain and may report the same set. If both reported, the timeout would be told
 * {@code cancelled()} twice; if neither, never. A version of 2026-11-29 let the stop() take the
 * report between the start's drain and its own telling, and both told.
 *
 * <p>Setup: a timer whose thread factory's {@code Thread.start()} schedules timeout B (accepted:
 * the timer is started by then) and then throws. Actor 1 schedules A, which starts the timer and
 * gets the start's failure; actor 2 stops the timer. The rule: B is told exactly once and returned
 * by stop() at most once; A's call failed, so A was never handed out; nothing is pending after.
 *
 * <p>Result: r1 = B's {@code cancelled()} calls, r2 = the size of stop()'s set (-1 if it threw),
 * r3 = 1 if actor 1's schedule failed with the start's error, 2 if it was refused because stop()
 * came first, r4 = {@code pendingTimeouts()} after both.
 */
@Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "the failed start told B (stop() came later or lost)")
@Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE, desc = "stop() took the report: it told and returned B")
@Outcome(id = "0, 0, 2, 0", expect = ACCEPTABLE, desc = "stop() came first: the start (or B) was refused")
@Outcome(expect = FORBIDDEN, desc = "B told twice or never, returned wrongly, a call failed, or something left pending")
@JCStressTest
@State
public class StartFailureVsStop {

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);

    private final RecordingTask taskB = new RecordingTask();
    private final Rendezvous rendezvous = new Rendezvous();
    private final TimerCore core;

    /** Creates a state: a timer whose worker thread cannot start. */
    public StartFailureVsStop() {
        core = new TimerCore(new TimerOptions(TimerOptions.Kind.HASHED, "HashedWheelTimer")
                .tickNanos(TICK).wheelSize(64).threadFactory(runnable -> {
                    Thread thread = new Thread(runnable, "start-failure-worker") {
                        @Override
                        public synchronized void start() {
                            // Another producer, on the timer already STARTED: accepted and queued.
                            StartFailureVsStop.this.core.schedule(null, taskB, TimeUnit.HOURS.toNanos(1));
                            throw new OutOfMemoryError("simulated: unable to create native thread");
                        }
                    };
                    thread.setDaemon(true);
                    return thread;
                }));
    }

    /**
     * Schedules A, which starts the timer and meets the start's failure.
     *
     * @param r the result
     */
    @Actor
    public void firstSchedule(final IIII_Result r) {
        rendezvous.arrive();
        try {
            core.schedule(null, new RecordingTask(), TimeUnit.HOURS.toNanos(1));
        } catch (OutOfMemoryError expected) {
            r.r3 = 1;
        } catch (IllegalStateException refused) {
            r.r3 = 2; // stop() came first: the timer, or B inside the start, was refused
        }
    }

    /**
     * Stops the timer.
     *
     * @param r the result
     */
    @Actor
    public void stopper(final IIII_Result r) {
        rendezvous.arrive();
        try {
            Set<Timeout> returned = core.stop();
            r.r2 = returned.size();
        } catch (RuntimeException failed) {
            r.r2 = -1;
        }
    }

    /**
     * Reads what ended how.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIII_Result r) {
        r.r1 = taskB.cancels();
        r.r4 = (int) core.pendingTimeouts();
    }
}
