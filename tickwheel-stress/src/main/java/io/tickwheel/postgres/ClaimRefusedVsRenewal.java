package io.tickwheel.postgres;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.durable.StoredTimeout;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: a timer thread's claim is refused because the slice's lease lapsed (the database was
 * unreachable), while the lease thread renews that lease at the same epoch and looks for refused
 * slices to reload. The timer drops a refused timeout, and its row does not change, so if the
 * refusal slipped between the lease thread's look and the next one the timeout would stay pending
 * and never fire; if both rounds took it, it would be delivered twice.
 *
 * <p>The rule: a timeout whose claim was refused is delivered again exactly once, by the round
 * that follows the renewal or by the next one, and never when the claim succeeded. The claim may
 * also succeed: it reads {@code safeUntil} after the renewal published the new one, and then nothing
 * is delivered again. Either way the delivery record ends up present (the timeout is held).
 *
 * <p>Setup: one slice owned at epoch 1 with {@code safeUntil} = 800, its timeout delivered, the clock
 * at 1000 (lapsed). Result: r1 = the claim (1/0), r2 = the lease thread's round re-delivered it
 * (1/0), r3 = the arbiter's round (the next round of the lease thread) re-delivered it (1/0),
 * r4 = the timeout is held at the end (1/0).
 */
@JCStressTest
@State
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "the claim saw the renewal and won; nothing to re-deliver")
@Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE, desc = "refused; the round after the renewal re-delivered it")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "refused after that round looked; the next one re-delivered it")
@Outcome(id = "0, 0, 0, .*", expect = FORBIDDEN, desc = "refused and never re-delivered: the timeout is lost")
@Outcome(expect = FORBIDDEN, desc = "re-delivered twice, re-delivered after a winning claim, or not held at the end")
public class ClaimRefusedVsRenewal {

    private static final long LEASE_NANOS = 1_000;
    /** Past the first safeUntil (1000 - 1000 / 5 = 800), before the renewed one (1800). */
    private static final long NOW = 1_000;

    /** The clock: written only here, before the actors start; volatile as the real clock is shared. */
    private volatile long now = NOW;
    private final SliceLeases leases = new SliceLeases(LEASE_NANOS, () -> now);
    private final StoredTimeout timeout =
            new StoredTimeout("t", "k", new byte[0], Instant.ofEpochSecond(1_000), 1, 5);
    private final long slice = SliceLeases.sliceOf(timeout);

    /** Owns the slice since time 0 and delivers the timeout, as the lease thread does on acquisition. */
    public ClaimRefusedVsRenewal() {
        leases.acquired(slice, 1, 0);
        // Not checked here: had the delivery failed, every outcome would be FORBIDDEN (no record to
        // claim, refuse or revoke), so a broken setup cannot pass.
        leases.deliverable(timeout);
    }

    /**
     * The timer thread: the deadline came, it claims.
     *
     * @param r the result
     */
    @Actor
    public void timer(final IIII_Result r) {
        r.r1 = leases.claim(timeout) ? 1 : 0;
    }

    /**
     * The lease thread: the renewal at epoch 1 came back, then it reloads the refused slices.
     *
     * @param r the result
     */
    @Actor
    public void leaseThread(final IIII_Result r) {
        Map<Long, Long> asked = leases.snapshot();
        leases.renewed(asked, Set.of(slice), now);
        r.r2 = reloadRound();
    }

    /**
     * The lease thread's next round, and the end state.
     *
     * @param r the result
     */
    @Arbiter
    public void nextRound(final IIII_Result r) {
        r.r3 = reloadRound();
        r.r4 = leases.holds(TimeoutKey.of(timeout)) ? 1 : 0;
    }

    /** One reload round as the lease loop runs it; 1 if it delivered the timeout again. */
    private int reloadRound() {
        List<Long> reload = leases.reloadable();
        if (reload.isEmpty()) {
            return 0;
        }
        if (!reload.equals(List.of(slice))) {
            // Only one slice exists; anything else is a broken queue: make it a FORBIDDEN outcome.
            return 9;
        }
        // The reload reads the slice's rows again: the same incarnation, since nothing changed it.
        return leases.deliverable(timeout) ? 1 : 0;
    }
}
