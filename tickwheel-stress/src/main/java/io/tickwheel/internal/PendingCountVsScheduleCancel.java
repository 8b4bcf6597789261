package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.Timeout;
import io.tickwheel.stress.RecordingTask;
import io.tickwheel.stress.Rendezvous;
import io.tickwheel.stress.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: {@code pendingTimeouts()} is not a counter but a difference of three, written by
 * different threads: scheduled (the hand-off queue's producer index), cancelled (an atomic add by
 * each winning {@code cancel()}) and retired (the worker's). A reader that loaded "scheduled"
 * before "cancelled" could pair an old schedule count with a newer cancel count and report fewer
 * timeouts than are pending, down to zero or below; a count moved twice or not at all would stay
 * wrong after the callers are done.
 *
 * <p>Setup: timeouts B and D are pending. The caller schedules C, cancels B, cancels C; the reader
 * reads {@code pendingTimeouts()} until the caller is done, then once more. The true count goes
 * 2, 3, 2, 1, and D is pending throughout.
 *
 * <p>The rule: every read is between 1 and 3 (never negative, never zero while D is pending, never
 * more than were ever pending at once), and the count is exact (1) once the caller is done. A read
 * may lag (it pairs an older cancel count with a newer schedule count), so 3 may be seen even
 * after the caller's first cancel; that over-count is allowed, an under-count is not. The
 * schedule and cancel paths are the core's, shared by both timers.
 *
 * <p>Result: r1 = lowest read, r2 = highest read, r3 = {@code pendingTimeouts()} after both
 * actors, r4 = how many of the caller's two cancels returned true.
 */
@JCStressTest
@State
@Outcome(id = "1, 1, 1, 2", expect = ACCEPTABLE, desc = "every read saw the end state")
@Outcome(id = "1, 2, 1, 2", expect = ACCEPTABLE, desc = "reads saw the start or a cancel in flight, then the end")
@Outcome(id = "1, 3, 1, 2", expect = ACCEPTABLE, desc = "reads saw C scheduled and not yet cancelled")
@Outcome(expect = FORBIDDEN, desc = "a read below 1 or above 3, an inexact final count, or a failed cancel")
public class PendingCountVsScheduleCancel {

    private final WorkerRig rig = new WorkerRig(WorkerRig.Wheel.HASHED);
    private final Timeout b = rig.schedule(new RecordingTask(), WorkerRig.FAR);
    private final Rendezvous rendezvous = new Rendezvous();
    private volatile boolean done;

    /** Keeps D pending throughout. */
    public PendingCountVsScheduleCancel() {
        rig.schedule(new RecordingTask(), WorkerRig.FAR);
    }

    /**
     * Schedules C, cancels B and C.
     *
     * @param r the result
     */
    @Actor
    public void caller(final IIII_Result r) {
        rendezvous.arrive();
        Timeout c = rig.schedule(new RecordingTask(), WorkerRig.FAR);
        int won = b.cancel() ? 1 : 0;
        won += c.cancel() ? 1 : 0;
        r.r4 = won;
        done = true;
    }

    /**
     * Reads the count until the caller is done, and once after.
     *
     * @param r the result
     */
    @Actor
    public void reader(final IIII_Result r) {
        rendezvous.arrive();
        long lowest = Long.MAX_VALUE;
        long highest = Long.MIN_VALUE;
        boolean finished;
        int step = 0;
        do {
            Spin.pause(++step);
            finished = done;
            long count = rig.pendingTimeouts();
            lowest = Math.min(lowest, count);
            highest = Math.max(highest, count);
        } while (!finished);
        r.r1 = (int) lowest;
        r.r2 = (int) highest;
    }

    /**
     * Records the count at quiescence.
     *
     * @param r the result
     */
    @Arbiter
    public void outcome(final IIII_Result r) {
        r.r3 = (int) rig.pendingTimeouts();
    }
}
