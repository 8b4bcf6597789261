package io.tickwheel.postgres;

import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * The lease thread: acquires the slices that come due within the lookahead, loads their timeouts
 * into the sink, renews its leases, gives back finished slices, and applies the notifications the
 * {@link Listener} hears (a timeout scheduled, replaced or cancelled by any process). Every sink
 * call and every change of {@link SliceLeases#owned owned slices} happens on this one thread, so a
 * notification and a slice load can never interleave: the later one always wins.
 *
 * <p>Rounds: renew every {@code lease / 5}; acquire every {@code min(lease / 10, 500 ms)}, and at
 * once when a notification names a slice nobody here owns or a process released its slices; apply
 * notifications as they come. A failed round is logged (rate-limited) and retried on the next tick;
 * meanwhile claims stop by themselves when {@code safeUntil} passes.
 *
 * <p>Threading: {@link #run()} on one thread ("tickwheel-postgres-lease-…"); {@link #offer},
 * {@link #gap} and {@link #close} from any thread (a blocking queue and volatile flags).
 */
final class LeaseLoop implements Runnable {

    /** How far ahead slices are leased and loaded into the wheel. */
    static final Duration LOOKAHEAD = Duration.ofSeconds(5);
    private static final int ACQUIRE_LIMIT = 8;
    private static final long NOTICE_ACQUIRE_GAP_NANOS = 20_000_000L;
    private static final String GAP = "";
    private static final String STOP = "\u0000";

    private final DataSource dataSource;
    private final TimeoutTable timeouts;
    private final SliceTable slices;
    private final SliceLeases leases;
    private final TimerStore.Sink sink;
    private final Clock clock;
    private final String node;
    private final double leaseSeconds;
    private final long renewNanos;
    private final long pollNanos;
    private final int timeoutSeconds;
    private final Log log;
    private final LinkedBlockingQueue<String> inbox = new LinkedBlockingQueue<>();
    /** Written by close, read by the lease thread. */
    private volatile boolean closed;

    LeaseLoop(final DataSource dataSource, final TimeoutTable timeouts, final SliceTable slices,
            final SliceLeases leases, final TimerStore.Sink sink, final Clock clock, final String node,
            final Duration lease, final int timeoutSeconds, final Log log) {
        this.dataSource = dataSource;
        this.timeouts = timeouts;
        this.slices = slices;
        this.leases = leases;
        this.sink = sink;
        this.clock = clock;
        this.node = node;
        this.leaseSeconds = lease.toNanos() / 1e9;
        this.renewNanos = lease.toNanos() / 5;
        this.pollNanos = Math.min(lease.toNanos() / 10, 500_000_000L);
        this.timeoutSeconds = timeoutSeconds;
        this.log = log;
    }

    /** Set when the sink threw on a delivery this round; lease thread only. */
    private boolean sinkRefused;

    /** A payload heard on the channel. */
    void offer(final String payload) {
        inbox.add(payload);
    }

    /** Notifications may have been missed: reload what is held. */
    void gap() {
        inbox.add(GAP);
    }

    void close() {
        closed = true;
        inbox.add(STOP);
    }

    @Override
    public void run() {
        long nextRenew = System.nanoTime();
        long nextAcquire = nextRenew;
        long lastAcquire = nextRenew - pollNanos;
        boolean resync = false;
        Set<TimeoutKey> refresh = new HashSet<>();
        while (!closed) {
            boolean acquireNow = false;
            try {
                long now = System.nanoTime();
                String first = inbox.poll(Math.max(0, Math.min(nextRenew, nextAcquire) - now), TimeUnit.NANOSECONDS);
                List<String> payloads = new ArrayList<>();
                if (first != null) {
                    payloads.add(first);
                    inbox.drainTo(payloads);
                }
                for (String p : payloads) {
                    if (p.equals(GAP)) {
                        resync = true;
                    } else if (!p.equals(STOP)) {
                        acquireNow |= heard(p, refresh);
                    }
                }
                if (closed) {
                    break;
                }
                if (acquireNow) {
                    // Many notices in a burst call for one round, not one each: at most one per 20 ms.
                    nextAcquire = Math.min(nextAcquire, lastAcquire + NOTICE_ACQUIRE_GAP_NANOS);
                }
                try (Connection c = dataSource.getConnection()) {
                    c.setAutoCommit(true);
                    now = System.nanoTime();
                    if (now - nextRenew >= 0) {
                        renew(c);
                        nextRenew = now + renewNanos;
                    }
                    if (now - nextAcquire >= 0) {
                        acquire(c);
                        lastAcquire = now;
                        nextAcquire = now + pollNanos;
                    }
                    if (resync) {
                        resync(c);
                        resync = false;
                        refresh.clear();
                    } else if (!refresh.isEmpty()) {
                        refresh(c, refresh);
                        refresh.clear();
                    }
                    reloadRefused(c);
                }
                if (sinkRefused) {
                    sinkRefused = false;
                    resync = true; // the next round delivers again what the sink threw on
                }
            } catch (SQLException | RuntimeException | Error e) {
                // An Error too (out of memory while loading, a sink that threw one): the thread must
                // outlive it, or this process renews nothing and fires nothing from here on.
                log.warn("lease", "PostgresStore: a lease round on " + node + " failed; retrying (claims stop by"
                        + " themselves when a lease cannot be renewed in time): " + e.getMessage(), e);
                // Whatever the round did not finish (an acquire whose load failed, a refresh) is redone by
                // reloading every owned slice and held key.
                resync = true;
                nextAcquire = System.nanoTime() + pollNanos;
                sleepQuietly(pollNanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Applies one notification; true if it calls for an acquire round. */
    private boolean heard(final String payload, final Set<TimeoutKey> refresh) {
        Notice n = Notice.parse(payload);
        if (n == null) {
            return false;
        }
        if (n.released()) {
            return true;
        }
        TimeoutKey key = new TimeoutKey(n.type(), n.key());
        if (leases.owns(n.slice()) || leases.holds(key)) {
            refresh.add(key);
        }
        return !leases.owns(n.slice()) && n.slice() <= horizon();
    }

    private long horizon() {
        return Notice.sliceOf(Notice.micros(clock.instant().plus(LOOKAHEAD)));
    }

    private void acquire(final Connection c) throws SQLException {
        long horizon = horizon();
        slices.ensure(c, horizon);
        for (int round = 0; round < 4 && !closed; round++) {
            long sent = System.nanoTime();
            Map<Long, Long> got = slices.acquire(c, horizon, ACQUIRE_LIMIT, node, leaseSeconds);
            if (got.isEmpty()) {
                return;
            }
            got.forEach((slice, epoch) -> leases.acquired(slice, epoch, sent));
            for (StoredTimeout t : timeouts.loadSlices(c, got.keySet(), timeoutSeconds)) {
                deliver(t);
            }
            if (got.size() < ACQUIRE_LIMIT) {
                return;
            }
        }
    }

    private void renew(final Connection c) throws SQLException {
        Map<Long, Long> asked = leases.snapshot();
        if (asked.isEmpty()) {
            return;
        }
        long sent = System.nanoTime();
        Set<Long> held = slices.renew(c, asked, node, leaseSeconds);
        for (long slice : leases.renewed(asked, held, sent)) {
            log.warn("lost", "PostgresStore: " + node + " lost its lease on slice " + slice
                    + " (another process took it over); it stops firing that slice", null);
            revokeAll(leases.forget(slice));
        }
        // Slices that ended more than a second ago and hold nothing pending are deleted and forgotten.
        long past = Notice.sliceOf(Notice.micros(clock.instant())) - 1;
        Map<Long, Long> old = new HashMap<>();
        asked.forEach((slice, epoch) -> {
            if (slice < past && held.contains(slice)) {
                old.put(slice, epoch);
            }
        });
        if (!old.isEmpty()) {
            for (long slice : slices.finish(c, old)) {
                revokeAll(leases.forget(slice));
                old.remove(slice);
            }
        }
        if (!old.isEmpty()) {
            // Past slices that still hold pending rows: mostly handlers still running, but also rows
            // no notice announced (a transaction that committed long after its schedule call, or a
            // process whose clock is behind ours, judged them far off). Nothing else ever loads those
            // into a slice already owned; deliverable() skips what this process already holds.
            for (StoredTimeout t : timeouts.loadSlices(c, old.keySet(), timeoutSeconds)) {
                deliver(t);
            }
        }
    }

    private void refresh(final Connection c, final Set<TimeoutKey> keys) throws SQLException {
        Map<TimeoutKey, StoredTimeout> rows = new HashMap<>();
        for (StoredTimeout t : timeouts.loadKeys(c, keys, timeoutSeconds)) {
            rows.put(TimeoutKey.of(t), t);
        }
        for (TimeoutKey key : keys) {
            StoredTimeout row = rows.get(key);
            if (row != null && leases.owns(SliceLeases.sliceOf(row))) {
                deliver(row);
            } else {
                // Cancelled, completed, or moved to a slice another process owns.
                StoredTimeout dropped = leases.drop(key);
                if (dropped != null) {
                    revoke(dropped);
                }
            }
        }
    }

    /** Delivers again what the timer dropped when a claim was refused for a lapsed lease (see SliceLeases#claim). */
    private void reloadRefused(final Connection c) throws SQLException {
        List<Long> again = leases.reloadable();
        if (again.isEmpty()) {
            return;
        }
        // If this load fails, the slices have left the queue, but the failed round's resync reloads
        // every owned slice, and the dropped timeouts are deliverable again.
        for (StoredTimeout t : timeouts.loadSlices(c, again, timeoutSeconds)) {
            deliver(t);
        }
    }

    /** After missed notifications: reload every owned slice and every held key. */
    private void resync(final Connection c) throws SQLException {
        Set<TimeoutKey> keys = new HashSet<>(leases.heldKeys());
        Map<Long, Long> owned = leases.snapshot();
        if (!owned.isEmpty()) {
            for (StoredTimeout t : timeouts.loadSlices(c, owned.keySet(), timeoutSeconds)) {
                deliver(t);
                keys.remove(TimeoutKey.of(t));
            }
        }
        if (!keys.isEmpty()) {
            refresh(c, keys);
        }
    }

    /** Gives every owned slice back (close). Best effort: an unreleased lease simply expires. */
    void release() {
        Map<Long, Long> owned = leases.snapshot();
        if (owned.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            slices.release(c, owned);
        } catch (SQLException | RuntimeException e) {
            log.warn("release", "PostgresStore: " + node + " could not release its leases; they expire in one"
                    + " lease instead: " + e.getMessage(), e);
        }
    }

    /**
     * Hands {@code t} to the sink if it is new here. A sink that throws did not take it: the delivery
     * is forgotten, so a later resync delivers it again (nothing else delivers a timeout twice),
     * and the round goes on with the rest, so one timeout the sink always refuses holds up no other.
     */
    private void deliver(final StoredTimeout t) {
        if (leases.deliverable(t)) {
            try {
                sink.deliver(t);
            } catch (RuntimeException | Error e) {
                leases.undelivered(t);
                sinkRefused = true;
                log.warn("sink", "PostgresStore: the timer's sink threw on deliver of " + t
                        + "; it is delivered again on the next round", e);
            }
        }
    }

    private void revokeAll(final List<StoredTimeout> dropped) {
        for (StoredTimeout t : dropped) {
            revoke(t);
        }
    }

    private void revoke(final StoredTimeout t) {
        try {
            sink.revoke(t.type(), t.key(), t.version());
        } catch (RuntimeException e) {
            log.warn("sink", "PostgresStore: the timer's sink threw on revoke; the store goes on", e);
        }
    }

    private static void sleepQuietly(final long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
