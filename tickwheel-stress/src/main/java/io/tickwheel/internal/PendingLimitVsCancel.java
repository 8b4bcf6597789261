package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.Timeout;
import io.tickwheel.stress.RecordingTask;
import java.util.concurrent.RejectedExecutionException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: with a pending limit ({@code maxPendingTimeouts}), {@code newTimeout} checks the pending
 * count (scheduled minus retired minus cancelled) against the limit right before its hand-off claim,
 * on the very index the claim takes, and every end of a timeout lowers the count. A
 * {@code newTimeout} at the limit racing a {@code cancel()} that frees a slot may be refused or
 * accepted, but a slot must not leak (the timer would refuse work forever, one slot at a time:
 * Netty's timer shipped such count bugs) nor be freed twice (the limit would stop holding).
 *
 * <p>Setup: limit 1, and timeout T pending, holding the only slot. One actor cancels T, the
 * other schedules U. Afterwards the arbiter reads {@code pendingTimeouts()} and probes the limit
 * with one more {@code newTimeout}: it must be refused iff a timeout is pending. The limit code
 * is the core's, shared by both timers.
 *
 * <p>Result: r1 = {@code cancel()} (1/0), r2 = U accepted (1) or refused with
 * {@link RejectedExecutionException} (0), r3 = {@code pendingTimeouts()}, r4 = the probe accepted.
 */
@JCStressTest
@State
@Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE,
        desc = "the cancel came first: U took the slot, the probe is refused")
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "U came first and was refused: the probe takes the free slot")
@Outcome(expect = FORBIDDEN, desc = "a slot leaked or was freed twice, the limit was exceeded, or the cancel failed")
public class PendingLimitVsCancel {

    private final WorkerRig rig = new WorkerRig(WorkerRig.Wheel.HASHED, 1);
    private final Timeout held = rig.schedule(new RecordingTask(), WorkerRig.FAR);

    /**
     * Cancels T, freeing its slot.
     *
     * @param r the result
     */
    @Actor
    public void canceller(final IIII_Result r) {
        r.r1 = held.cancel() ? 1 : 0;
    }

    /**
     * Schedules U at the limit.
     *
     * @param r the result
     */
    @Actor
    public void scheduler(final IIII_Result r) {
        r.r2 = tryScheduling();
    }

    /**
     * Reads the count and probes the limit.
     *
     * @param r the result
     */
    @Arbiter
    public void outcome(final IIII_Result r) {
        r.r3 = (int) rig.pendingTimeouts();
        r.r4 = tryScheduling();
    }

    private int tryScheduling() {
        try {
            rig.schedule(new RecordingTask(), WorkerRig.FAR);
            return 1;
        } catch (RejectedExecutionException refused) {
            return 0;
        }
    }
}
