package io.tickwheel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.durable.StoredTimeout;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The lease and fence protocol on a manual clock: no database, no threads. */
class SliceLeasesTest {

    private static final long LEASE = 10_000_000_000L;
    private final AtomicLong now = new AtomicLong(-5_000_000_000L); // across zero on purpose
    private final SliceLeases leases = new SliceLeases(LEASE, now::get);

    private static StoredTimeout timeout(final String key, final long second, final long version) {
        return new StoredTimeout("t", key, new byte[0], Instant.ofEpochSecond(second, 500_000_000), 1, version);
    }

    @Test
    void claim_onlyForTheDeliveredIncarnation_inAnOwnedSlice_beforeSafeUntil() {
        StoredTimeout t = timeout("k", 100, 7);
        assertThat(leases.deliverable(t)).as("slice not owned").isFalse();
        leases.acquired(100, 3, now.get());
        assertThat(leases.deliverable(t)).isTrue();
        assertThat(leases.deliverable(t)).as("same version twice").isFalse();
        assertThat(leases.claim(t)).isTrue();
        assertThat(leases.claim(timeout("k", 100, 6))).as("another incarnation").isFalse();
        assertThat(leases.epochFor(t)).isEqualTo(3);
        now.addAndGet(LEASE - LEASE / 5 - 1);
        assertThat(leases.claim(t)).isTrue();
        now.addAndGet(1);
        assertThat(leases.claim(t)).as("a fifth of a lease before the granted end").isFalse();
    }

    @Test
    void renewal_extendsHeldSlices_andForgetsLostOnes() {
        leases.acquired(100, 3, now.get());
        leases.acquired(101, 4, now.get());
        StoredTimeout a = timeout("a", 100, 1);
        StoredTimeout b = timeout("b", 101, 2);
        leases.deliverable(a);
        leases.deliverable(b);
        Map<Long, Long> asked = leases.snapshot();
        now.addAndGet(LEASE);
        List<Long> lost = leases.renewed(asked, Set.of(100L), now.get());
        assertThat(lost).containsExactly(101L);
        assertThat(leases.forget(101)).containsExactly(b);
        assertThat(leases.claim(a)).isTrue();
        assertThat(leases.claim(b)).isFalse();
        assertThat(leases.epochFor(b)).isEqualTo(-1);
    }

    @Test
    void finished_staysFinished_soAStaleLoadCannotDeliverItAgain() {
        leases.acquired(100, 3, now.get());
        StoredTimeout t = timeout("k", 100, 7);
        leases.deliverable(t);
        leases.finished(t);
        assertThat(leases.claim(t)).isFalse();
        assertThat(leases.deliverable(t)).as("a row read before the delete committed").isFalse();
        StoredTimeout newer = timeout("k", 100, 8);
        assertThat(leases.deliverable(newer)).isTrue();
        assertThat(leases.claim(newer)).isTrue();
        assertThat(leases.drop(new TimeoutKey("t", "k"))).isEqualTo(newer);
        assertThat(leases.claim(newer)).isFalse();
    }

    @Test
    void claimRefusedForALapsedLease_isDeliveredAgainOnceARenewalMakesItSafe() {
        leases.acquired(100, 3, now.get());
        StoredTimeout t = timeout("k", 100, 7);
        assertThat(leases.deliverable(t)).isTrue();
        assertThat(leases.reloadable()).isEmpty();
        Map<Long, Long> asked = leases.snapshot();
        now.addAndGet(LEASE); // the database was away: no renewal in time
        assertThat(leases.claim(t)).as("lease lapsed").isFalse();
        assertThat(leases.reloadable()).as("still unsafe: stays queued").isEmpty();
        assertThat(leases.renewed(asked, Set.of(100L), now.get())).isEmpty();
        assertThat(leases.reloadable()).containsExactly(100L);
        assertThat(leases.reloadable()).as("taken once").isEmpty();
        assertThat(leases.deliverable(t)).as("the same row, loaded again").isTrue();
        assertThat(leases.claim(t)).isTrue();
    }

    @Test
    void claimRefusedForALapsedLease_thenSliceLost_isNotReloadedHere() {
        leases.acquired(100, 3, now.get());
        StoredTimeout t = timeout("k", 100, 7);
        leases.deliverable(t);
        Map<Long, Long> asked = leases.snapshot();
        now.addAndGet(LEASE);
        assertThat(leases.claim(t)).isFalse();
        assertThat(leases.renewed(asked, Set.of(), now.get())).containsExactly(100L);
        assertThat(leases.forget(100)).as("already dropped by the refused claim").isEmpty();
        assertThat(leases.reloadable()).isEmpty();
        leases.acquired(100, 5, now.get());
        assertThat(leases.reloadable()).as("dropped from the queue when the slice was not owned").isEmpty();
        assertThat(leases.deliverable(t)).as("a new acquisition loads it afresh").isTrue();
    }

    @Test
    void close_stopsEveryClaim() {
        leases.acquired(100, 3, now.get());
        StoredTimeout t = timeout("k", 100, 7);
        leases.deliverable(t);
        leases.close();
        assertThat(leases.claim(t)).isFalse();
    }

    @Test
    void notice_roundTrips_anyCharacters() {
        Notice n = Notice.parse(Notice.of(-3, "ty pe 7", "k ey/\u00e9 12"));
        assertThat(n).isEqualTo(new Notice(-3, "ty pe 7", "k ey/\u00e9 12"));
        assertThat(Notice.parse(Notice.RELEASED).released()).isTrue();
        assertThat(Notice.parse("garbage")).isNull();
        assertThat(Notice.sliceOf(-1)).isEqualTo(-1);
        assertThat(Notice.micros(Instant.ofEpochSecond(0, 1))).as("rounded up, never early").isEqualTo(1);
        assertThat(Notice.instant(Notice.micros(Instant.ofEpochSecond(-5, 999_000)))).isEqualTo(
                Instant.ofEpochSecond(-5, 999_000));
    }
}
