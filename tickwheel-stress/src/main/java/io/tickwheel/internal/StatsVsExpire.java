package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.internal.StatsSnapshot.Counter;
import io.tickwheel.stress.RecordingTask;
import io.tickwheel.stress.Rendezvous;
import io.tickwheel.stress.Spin;
import io.tickwheel.stress.Turns;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Hazard: {@code stats()} read while the worker expires and drains. The counters cross threads:
 * the worker publishes expired and drained with release stores, the scheduled count is the
 * hand-off queue's producer index, and the reader loads them in the order that should make every
 * snapshot sound. A reader that saw an expiry without its schedule, or a worker that counted one
 * twice, would show more timeouts ended than scheduled, or a negative pending count.
 *
 * <p>Setup: A (due) and D (an hour out) are scheduled. The worker runs one pass: it expires A,
 * then its exit drain cancels D (what {@code stop()} returns, counted as cancelled). The reader
 * takes snapshots until the worker is done.
 *
 * <p>The rule: no snapshot shows expired + cancelled above scheduled, a negative pending count, or
 * a scheduled count other than 2; at the end the counts are exact: 2 scheduled = 1 expired + 1
 * cancelled + 0 pending. Runs on each wheel in turn.
 *
 * <p>Result: r1 = unsound snapshots seen by the reader, r2..r5 = final scheduled, expired,
 * cancelled, pending.
 */
@Outcome(id = "0, 2, 1, 1, 0", expect = ACCEPTABLE, desc = "every snapshot sound, the final one exact")
@Outcome(expect = FORBIDDEN, desc = "a snapshot with more ended than scheduled, or a wrong final count")
@JCStressTest
@State
public class StatsVsExpire {

    private final WorkerRig rig;
    private final Rendezvous rendezvous = new Rendezvous();
    private volatile boolean done;

    /** Creates a state, on the next configuration in turn (see {@link Turns}). */
    public StatsVsExpire() {
        this(WorkerRig.Wheel.next());
    }

    StatsVsExpire(final WorkerRig.Wheel wheel) {
        rig = new WorkerRig(wheel);
        rig.schedule(new RecordingTask(), 0);
        rig.schedule(new RecordingTask(), WorkerRig.FAR);
    }

    /** The worker runs one pass and exits. */
    @Actor
    public void worker() {
        rendezvous.arrive();
        rig.runPass();
        done = true;
    }

    /**
     * Reads snapshots while the worker runs.
     *
     * @param r the result
     */
    @Actor
    public void reader(final IIIII_Result r) {
        rendezvous.arrive();
        int unsound = 0;
        boolean finished;
        int step = 0;
        do {
            Spin.pause(++step);
            finished = done;
            StatsSnapshot stats = rig.stats();
            long scheduled = stats.get(Counter.SCHEDULED);
            long ended = stats.get(Counter.EXPIRED) + stats.get(Counter.CANCELLED);
            if (ended > scheduled || stats.get(Counter.PENDING) < 0 || scheduled != 2) {
                unsound++;
            }
        } while (!finished);
        r.r1 = unsound;
    }

    /**
     * Records the final counts.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIIII_Result r) {
        StatsSnapshot stats = rig.stats();
        r.r2 = (int) stats.get(Counter.SCHEDULED);
        r.r3 = (int) stats.get(Counter.EXPIRED);
        r.r4 = (int) stats.get(Counter.CANCELLED);
        r.r5 = (int) stats.get(Counter.PENDING);
    }
}
