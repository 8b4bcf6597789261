package io.tickwheel.postgres;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.durable.StoredTimeout;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Hazard: a timer thread's claim is refused because the slice's lease lapsed, while the lease
 * thread learns from its renewal that another process acquired the slice, forgets it, and reloads
 * the refused slices. The refusal queues the slice for a reload; if a queued slice that is no longer
 * owned were reloaded, this process would deliver a timeout that the new owner fires too.
 *
 * <p>The rule: the claim is refused (the lease is never renewed), and no round re-delivers the
 * timeout, neither the one right after the loss nor the next; afterwards nothing of the slice is
 * held. Whether {@code forget} lists the timeout to revoke depends on whether the refusal removed
 * its record first; both are fine, since the timer dropped the refused timeout itself.
 *
 * <p>Setup: one slice owned at epoch 1 with {@code safeUntil} = 800, its timeout delivered, the clock
 * at 1000 (lapsed). Result: r1 = the claim (1/0), r2 = {@code forget} listed the timeout (1/0),
 * r3 = what the lease thread's round reloaded or re-delivered (0: nothing), r4 = the same for
 * the arbiter's round (the next round), r5 = the timeout is held at the end (1/0).
 */
@JCStressTest
@State
@Outcome(id = "0, 1, 0, 0, 0", expect = ACCEPTABLE, desc = "forget came first and lists it; never re-delivered")
@Outcome(id = "0, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "the refusal dropped the record first; never re-delivered")
@Outcome(id = "0, ., .*1.*", expect = FORBIDDEN, desc = "a lost slice reloaded or re-delivered, or still held")
@Outcome(expect = FORBIDDEN, desc = "the lapsed claim won")
public class ClaimRefusedVsLoss {

    private static final long LEASE_NANOS = 1_000;
    /** Past safeUntil (1000 - 1000 / 5 = 800); no renewal here moves it. */
    private static final long NOW = 1_000;

    /** The clock: written only here, before the actors start; volatile as the real clock is shared. */
    private volatile long now = NOW;
    private final SliceLeases leases = new SliceLeases(LEASE_NANOS, () -> now);
    private final StoredTimeout timeout =
            new StoredTimeout("t", "k", new byte[0], Instant.ofEpochSecond(1_000), 1, 5);
    private final long slice = SliceLeases.sliceOf(timeout);

    /** Owns the slice since time 0 and delivers the timeout, as the lease thread does on acquisition. */
    public ClaimRefusedVsLoss() {
        leases.acquired(slice, 1, 0);
        // Not checked here: had the delivery failed, forget would list nothing and the claim would
        // still be refused, which looks like an ACCEPTABLE race; ClaimVsForget (same setup) would
        // then fail, since there forget must always list the timeout.
        leases.deliverable(timeout);
    }

    /**
     * The timer thread: the deadline came, it claims.
     *
     * @param r the result
     */
    @Actor
    public void timer(final IIIII_Result r) {
        r.r1 = leases.claim(timeout) ? 1 : 0;
    }

    /**
     * The lease thread: the renewal came back without the slice, so it forgets the slice, then it
     * reloads the refused slices.
     *
     * @param r the result
     */
    @Actor
    public void leaseThread(final IIIII_Result r) {
        List<Long> lost = leases.renewed(leases.snapshot(), Set.of(), now);
        int listed = 0;
        for (Long s : lost) {
            listed += leases.forget(s).contains(timeout) ? 1 : 0;
        }
        r.r2 = listed;
        r.r3 = reloadRound();
    }

    /**
     * The lease thread's next round, and the end state.
     *
     * @param r the result
     */
    @Arbiter
    public void nextRound(final IIIII_Result r) {
        r.r4 = reloadRound();
        r.r5 = leases.holds(TimeoutKey.of(timeout)) ? 1 : 0;
    }

    /**
     * One reload round as the lease loop runs it: 1 for each slice it reloads (only an owned slice
     * may be, and this one is lost), 1 more if the timeout was delivered again.
     */
    private int reloadRound() {
        int wrong = 0;
        for (Long ignored : leases.reloadable()) {
            // deliverable refuses an unowned slice's rows too: counted apart, as a second line of defence.
            wrong += 1 + (leases.deliverable(timeout) ? 1 : 0);
        }
        return wrong;
    }
}
