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
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Hazard: {@code pendingTimeouts()} read while the worker retires timeouts. The worker counts
 * what it expires, and what its exit drain cancels, in its own "retired" cell, published with a
 * release store per timeout; a reader that saw a retirement without the schedule it retires, or a
 * worker that counted one twice, would report fewer pending timeouts than exist, down to negative.
 *
 * <p>Setup: A (due) and D (an hour out) are pending. The worker runs one pass: it expires A, then
 * its exit drain cancels D, then it marks the timer terminated. The reader reads
 * {@code pendingTimeouts()} until the worker is done, then once more. The true count goes 2, 1, 0.
 *
 * <p>The rule: every read is between 0 and 2, and the count is 0 once the worker is done; A ran
 * once, D was collected by the drain, and the worker retired exactly those two. Runs on both
 * wheels.
 *
 * <p>Result: r1 = lowest read, r2 = highest read, r3 = A's runs, r4 = D collected by the drain
 * (1/0), r5 = the worker's retired counter.
 */
@Outcome(id = "0, 2, 1, 1, 2", expect = ACCEPTABLE, desc = "reads saw the start, then the end")
@Outcome(id = "0, 1, 1, 1, 2", expect = ACCEPTABLE, desc = "reads began after A expired")
@Outcome(id = "0, 0, 1, 1, 2", expect = ACCEPTABLE, desc = "every read saw the end state")
@Outcome(expect = FORBIDDEN, desc = "a read below 0 or above 2, a non-zero final count, or a miscounted timeout")
public abstract class PendingCountVsExpire {

    private final WorkerRig rig;
    private final RecordingTask dueTask = new RecordingTask();
    private final Timeout far;
    private final Rendezvous rendezvous = new Rendezvous();
    private volatile boolean done;

    PendingCountVsExpire(final WorkerRig.Wheel wheel) {
        rig = new WorkerRig(wheel);
        rig.schedule(dueTask, 0);
        far = rig.schedule(new RecordingTask(), WorkerRig.FAR);
    }

    final void pass() {
        rendezvous.arrive();
        rig.runPass();
        done = true;
    }

    final void read(final IIIII_Result r) {
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

    final void outcome(final IIIII_Result r) {
        r.r3 = dueTask.runs();
        r.r4 = rig.drained().contains(far) ? 1 : 0;
        r.r5 = (int) rig.retired();
    }

    /** On the hashed wheel. */
    @JCStressTest
    @State
    public static class Hashed extends PendingCountVsExpire {
        /** Creates the state. */
        public Hashed() {
            super(WorkerRig.Wheel.HASHED);
        }

        /** The worker runs one pass and exits. */
        @Actor
        public void worker() {
            pass();
        }

        /**
         * Reads the count while the worker runs.
         *
         * @param r the result
         */
        @Actor
        public void reader(final IIIII_Result r) {
            read(r);
        }

        /**
         * Records the tasks and the retired counter.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIIII_Result r) {
            outcome(r);
        }
    }

    /** On the hierarchical wheel. */
    @JCStressTest
    @State
    public static class Hierarchical extends PendingCountVsExpire {
        /** Creates the state. */
        public Hierarchical() {
            super(WorkerRig.Wheel.HIERARCHICAL);
        }

        /** The worker runs one pass and exits. */
        @Actor
        public void worker() {
            pass();
        }

        /**
         * Reads the count while the worker runs.
         *
         * @param r the result
         */
        @Actor
        public void reader(final IIIII_Result r) {
            read(r);
        }

        /**
         * Records the tasks and the retired counter.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIIII_Result r) {
            outcome(r);
        }
    }
}
