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
 * Hazard: {@code stats()} read while the worker expires and drains and a caller schedules. The
 * counts cross threads: the expired count is the lateness histogram's count, the sum of buckets the
 * worker publishes with release stores; drained is a worker count too; the scheduled count is the
 * hand-off queue's producer index, and the reader loads them in the order that should make every
 * snapshot sound. A reader that saw an expiry without its schedule, a sum of buckets that went
 * down, or a worker that counted one twice, would show more timeouts ended than scheduled, a
 * negative pending count, or a count lower than in the reader's previous snapshot.
 *
 * <p>Setup: A (due, 10 ms late when the worker looks), B (due, 5 ms late: another bucket of the
 * lateness histogram) and D (an hour out) are scheduled. The worker runs one pass: it expires A and
 * B, then its exit drain cancels D (what {@code stop()} returns, counted as cancelled). The reader
 * schedules C (due) as the pass starts, racing it, then takes snapshots until the worker is done.
 *
 * <p>The rule: no snapshot shows expired + cancelled above scheduled, a negative pending count, a
 * scheduled count outside 3 to 4, or any count below the same reader's previous snapshot; at the
 * end the counts are exact for one of C's three fates: taken by the pass and expired, drained (or
 * offered after stop() and cancelled by the race) and counted as cancelled, or refused before it
 * was offered. Runs on each wheel in turn.
 *
 * <p>Result: r1 = unsound snapshots seen by the reader, r2..r5 = final scheduled, expired,
 * cancelled, pending.
 */
@Outcome(id = "0, 4, 3, 1, 0", expect = ACCEPTABLE, desc = "C expired in the pass; all snapshots sound, final exact")
@Outcome(id = "0, 4, 2, 2, 0", expect = ACCEPTABLE, desc = "C cancelled by stop; all snapshots sound, final exact")
@Outcome(id = "0, 3, 2, 1, 0", expect = ACCEPTABLE, desc = "C refused; all snapshots sound, final exact")
@Outcome(expect = FORBIDDEN, desc = "more ended than scheduled, a count gone down, or wrong final counts")
@JCStressTest
@State
public class StatsVsExpire {

    private static final long LATE_BY_HALF = WorkerRig.WORKER_NOW / 2;

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
        rig.schedule(new RecordingTask(), LATE_BY_HALF);
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
     * Schedules C, then reads snapshots while the worker runs.
     *
     * @param r the result
     */
    @Actor
    public void reader(final IIIII_Result r) {
        rendezvous.arrive();
        try {
            rig.schedule(new RecordingTask(), 0);
        } catch (IllegalStateException refused) {
            // stop() came first: C was never scheduled
        }
        int unsound = 0;
        boolean finished;
        int step = 0;
        long[] last = new long[3];
        do {
            Spin.pause(++step);
            finished = done;
            StatsSnapshot stats = rig.stats();
            // EXPIRED is the lateness histogram's count (the sum of its buckets), so its check covers both.
            long[] now = {stats.get(Counter.SCHEDULED), stats.get(Counter.EXPIRED), stats.get(Counter.CANCELLED)};
            long ended = now[1] + now[2];
            if (ended > now[0] || stats.get(Counter.PENDING) < 0 || now[0] < 3 || now[0] > 4) {
                unsound++;
            }
            for (int i = 0; i < now.length; i++) {
                if (now[i] < last[i]) {
                    unsound++;
                }
            }
            last = now;
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
