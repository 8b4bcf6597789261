package io.tickwheel.postgres;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.durable.StoredTimeout;
import java.time.Instant;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: a timer thread claims a delivered timeout while the lease thread forgets its slice (the
 * lease was lost, released or finished). {@code claim} reads the delivery record, then the lease;
 * {@code forget} drops the lease, then the records. Neither is atomic against the other, so the
 * claim may win or lose depending on where it falls; what matters is that a winning claim is never
 * left unrevoked.
 *
 * <p>What the code guarantees, and this test checks: {@code forget} always lists the delivered,
 * unfinished timeout among those to revoke, whichever way the race went (only a refused claim
 * removes a record, and this lease is safe); so a claim that won is always followed by a revoke,
 * which is harmless after a claim (the handler's writes carry the epoch read at claim time and
 * are fenced once another process acquires the slice). Afterwards the slice is not owned
 * ({@code epochFor} is -1) and nothing of it is held.
 *
 * <p>Not guaranteed, so both are ACCEPTABLE: whether the claim wins. It wins only if its lease
 * lookup comes before {@code forget} removed the lease (a claim that starts after {@code forget}
 * finished finds no record and loses), but a claim overlapping {@code forget} can do either, and
 * the outcome cannot tell which order ran.
 *
 * <p>Result: r1 = the claim (1/0), r2 = {@code forget} listed the timeout (1/0), r3 =
 * {@code epochFor} afterwards, r4 = the timeout is still held afterwards (1/0).
 */
@JCStressTest
@State
@Outcome(id = "1, 1, -1, 0", expect = ACCEPTABLE, desc = "the claim won; forget lists it to revoke (harmless)")
@Outcome(id = "0, 1, -1, 0", expect = ACCEPTABLE, desc = "the claim lost; forget lists it to revoke")
@Outcome(id = "., 0, .*", expect = FORBIDDEN, desc = "forget did not list the delivered timeout: never revoked")
@Outcome(expect = FORBIDDEN, desc = "the slice still owned, or its timeout still held, after forget")
public class ClaimVsForget {

    private static final long LEASE_NANOS = 1_000_000_000L;
    private static final long EPOCH = 7;
    /** Well before safeUntil (lease - margin = 800 ms from time 0). */
    private static final long NOW = 1_000;

    /** The clock: written only here, before the actors start; volatile as the real clock is shared. */
    private volatile long now = NOW;
    private final SliceLeases leases = new SliceLeases(LEASE_NANOS, () -> now);
    private final StoredTimeout timeout =
            new StoredTimeout("t", "k", new byte[0], Instant.ofEpochSecond(1_000), 1, 5);
    private final long slice = SliceLeases.sliceOf(timeout);

    /** Owns the slice since time 0 and delivers the timeout, as the lease thread does on acquisition. */
    public ClaimVsForget() {
        leases.acquired(slice, EPOCH, 0);
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
     * The lease thread: the slice is gone; it forgets it and collects what to revoke.
     *
     * @param r the result
     */
    @Actor
    public void leaseThread(final IIII_Result r) {
        List<StoredTimeout> dropped = leases.forget(slice);
        r.r2 = dropped.equals(List.of(timeout)) ? 1 : 0;
    }

    /**
     * The end state.
     *
     * @param r the result
     */
    @Arbiter
    public void after(final IIII_Result r) {
        r.r3 = (int) leases.epochFor(timeout);
        r.r4 = leases.holds(TimeoutKey.of(timeout)) ? 1 : 0;
    }
}
