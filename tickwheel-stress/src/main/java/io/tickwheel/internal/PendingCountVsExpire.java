package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.Timeout;
import io.tickwheel.stress.RecordingTask;
import io.tickwheel.stress.Rendezvous;
import io.tickwheel.stress.Spin;
import io.tickwheel.stress.Turns;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * Hazard: {@code pendingTimeouts()} read while the worker retires timeouts. The worker counts
 * what it expires, and what its exit drain cancels, in its own "retired" cell, published with a
 * release store per timeout; a reader that saw a retirement without the schedule it retires, or a
 * worker that counted one twice, would report fewer pending timeouts than exist, down to negative.
 *
 * <p>Setup: A (due) and D (an hour out) are pending. The worker runs one pass: it expires A, then
 * its exit drain cancels D, then it marks the timer terminated. The reader reads
 * {@code pendingTimeouts()} while the worker runs (each read taken after seeing the worker not yet
 * done), then once more after it is done. The true count goes 2, 1, 0.
 *
 * <p>The rule: every read taken while the worker runs is between 0 and 2, the read after the worker
 * is done is 0; A ran once, D was collected by the drain, and the worker retired exactly those two.
 * Runs on each wheel in turn.
 *
 * <p>Result: r1 = lowest read while the worker ran, r2 = highest such read (both -1 if the reader
 * only got to read after the worker was done), r3 = the read after it was done, r4 = A's runs,
 * r5 = D collected by the drain (1/0), r6 = the worker's retired counter.
 */
@Outcome(id = "2, 2, 0, 1, 1, 2", expect = ACCEPTABLE, desc = "reads while running saw only the start")
@Outcome(id = "1, 2, 0, 1, 1, 2", expect = ACCEPTABLE, desc = "reads while running saw the start and A expired")
@Outcome(id = "0, 2, 0, 1, 1, 2", expect = ACCEPTABLE, desc = "reads while running saw the start and the end")
@Outcome(id = "1, 1, 0, 1, 1, 2", expect = ACCEPTABLE, desc = "reads while running saw A expired")
@Outcome(id = "0, 1, 0, 1, 1, 2", expect = ACCEPTABLE, desc = "reads while running saw A expired, then the end")
@Outcome(id = "0, 0, 0, 1, 1, 2", expect = ACCEPTABLE, desc = "reads while running saw the end state")
@Outcome(id = "-1, -1, 0, 1, 1, 2", expect = ACCEPTABLE, desc = "the reader only read after the worker was done")
@Outcome(expect = FORBIDDEN, desc = "a read below 0 or above 2, a non-zero final count, or a miscounted timeout")
@JCStressTest
@State
public class PendingCountVsExpire {

    private final WorkerRig rig;
    private final RecordingTask dueTask = new RecordingTask();
    private final Timeout far;
    private final Rendezvous rendezvous = new Rendezvous();
    private volatile boolean done;

    /** Creates a state, on the next configuration in turn (see {@link Turns}). */
    public PendingCountVsExpire() {
        this(WorkerRig.Wheel.next());
    }

    PendingCountVsExpire(final WorkerRig.Wheel wheel) {
        rig = new WorkerRig(wheel);
        rig.schedule(dueTask, 0);
        far = rig.schedule(new RecordingTask(), WorkerRig.FAR);
    }

    /** The worker runs one pass and exits. */
    @Actor
    public void worker() {
        rendezvous.arrive();
        rig.runPass();
        done = true;
    }

    /**
     * Reads the count while the worker runs.
     *
     * @param r the result
     */
    @Actor
    public void reader(final IIIIII_Result r) {
        rendezvous.arrive();
        long lowest = Long.MAX_VALUE;
        long highest = Long.MIN_VALUE;
        int step = 0;
        // Only reads taken after seeing the worker still running count as "while running": the read
        // after the loop is always 0, and folding it in would make the lowest read always 0.
        while (!done) {
            long count = rig.pendingTimeouts();
            lowest = Math.min(lowest, count);
            highest = Math.max(highest, count);
            Spin.pause(++step);
        }
        r.r1 = lowest == Long.MAX_VALUE ? -1 : (int) lowest;
        r.r2 = highest == Long.MIN_VALUE ? -1 : (int) highest;
        r.r3 = (int) rig.pendingTimeouts();
    }

    /**
     * Records the tasks and the retired counter.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIIIII_Result r) {
        r.r4 = dueTask.runs();
        r.r5 = rig.drained().contains(far) ? 1 : 0;
        r.r6 = (int) rig.retired();
    }
}
