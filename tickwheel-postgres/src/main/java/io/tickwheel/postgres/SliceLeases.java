package io.tickwheel.postgres;

import io.tickwheel.durable.StoredTimeout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The lease and fence protocol of one process: which slices of time it owns, at which epoch, until
 * when it may still fire them, and which timeouts it has delivered to its timer. JDBC stays outside
 * ({@link SliceTable}, driven by {@link LeaseLoop}); this class only decides.
 *
 * <h2>A slice's life, as one process sees it</h2>
 * <pre>
 *              acquire: epoch := epoch + 1 in the row,      renew: same epoch still in the row
 *              lease_until := db now + lease                 safeUntil := start + lease - margin
 *   NOT OWNED ------------------------------------&gt; OWNED &lt;---------------------------------+
 *       ^                                            |  |                                     |
 *       |  renew finds another epoch (taken over),   |  +-------------------------------------+
 *       |  finish (past, nothing pending: row        |
 *       |  deleted), or release (close)              |
 *       +--------------------------------------------+
 * </pre>
 * Only rows whose {@code lease_until} passed (by the database's clock) can be acquired, and
 * acquiring bumps the epoch. An owner stops claiming at {@code safeUntil}, which is measured on its
 * own monotonic clock from the moment it <em>sent</em> the renewal, {@code margin} before the lease
 * the database granted can end. So a process that stalls (GC, SIGSTOP, a lost network) stops firing
 * before anyone else may start: two live processes never both fire one slice. Handlers already
 * claimed keep running (the fires in flight); their {@code done}, {@code retry} and {@code fail}
 * carry the epoch read at claim time in their {@code WHERE} clause, so once another process has
 * acquired the slice they change nothing, and the new owner fires those timeouts again.
 *
 * <h2>Delivered timeouts</h2>
 * {@link #deliverable} records each timeout handed to the timer, by key, with its version;
 * {@link #claim} answers true only for that exact incarnation in an owned slice before
 * {@code safeUntil}: two map lookups and a clock read, no round trip. Replacements and cancels made
 * by other processes arrive as notifications and replace or drop the recorded incarnation.
 *
 * <p>Threading: thread-safe. The lease thread is the only writer of {@code owned} and of new entries
 * in {@code held}; the done writer removes entries from {@code held}; timer threads call
 * {@link #claim} and {@link #epochFor}. Both maps are {@link ConcurrentHashMap}s (their puts
 * happen-before the gets that see them); {@link Lease#safeUntilNanos} is volatile (written by the
 * lease thread after each renewal, read by {@link #claim}).
 */
final class SliceLeases {

    /** One owned slice. */
    static final class Lease {
        final long epoch;
        /** Written by the lease thread, read by claimers: volatile. */
        volatile long safeUntilNanos;

        Lease(final long epoch, final long safeUntilNanos) {
            this.epoch = epoch;
            this.safeUntilNanos = safeUntilNanos;
        }
    }

    private final ConcurrentHashMap<Long, Lease> owned = new ConcurrentHashMap<>();
    /**
     * A delivered incarnation; {@code finished} once its outcome is written. The finished entry stays
     * until its slice is forgotten, so a slice load that read the row just before the outcome
     * committed cannot deliver it again.
     */
    private record Held(StoredTimeout timeout, boolean finished) {
    }

    private final ConcurrentHashMap<TimeoutKey, Held> held = new ConcurrentHashMap<>();
    /** Slices with claims refused for a lapsed lease; added by timer threads, taken by the lease thread. */
    private final Set<Long> refused = ConcurrentHashMap.newKeySet();
    private final long leaseNanos;
    private final long marginNanos;
    private final LongSupplier nanoTime;
    /** Set once by close; read by claimers. */
    private volatile boolean closed;

    SliceLeases(final long leaseNanos, final LongSupplier nanoTime) {
        this.leaseNanos = leaseNanos;
        this.marginNanos = leaseNanos / 5;
        this.nanoTime = nanoTime;
    }

    static long sliceOf(final StoredTimeout t) {
        return Notice.sliceOf(Notice.micros(t.deadline()));
    }

    /**
     * True if this exact incarnation may run now (see the class comment).
     *
     * <p>A claim refused only because the slice's lease is not yet renewed (the database was
     * unreachable for longer than {@code lease - margin}) is not final: the timer drops the
     * timeout, so the delivery record is removed and the slice queued in {@link #reloadable}, and
     * the lease thread delivers it again once a renewal at the same epoch makes the lease safe.
     * Without this a timeout due during a database restart would stay pending in the table and
     * never fire, since the row itself does not change.
     */
    boolean claim(final StoredTimeout t) {
        if (closed) {
            return false;
        }
        TimeoutKey key = TimeoutKey.of(t);
        Held h = held.get(key);
        if (h == null || h.finished() || !h.timeout().sameIncarnation(t)) {
            return false;
        }
        long slice = sliceOf(t);
        Lease lease = owned.get(slice);
        if (lease == null) {
            return false;
        }
        if (nanoTime.getAsLong() - lease.safeUntilNanos < 0) {
            return true;
        }
        // Order matters: the record goes before the slice is queued, so a reload that takes the
        // slice from the queue finds the timeout deliverable.
        held.remove(key, h);
        refused.add(slice);
        return false;
    }

    /**
     * Takes the slices whose claims were refused for a lapsed lease and that are owned and safe
     * again: the lease thread reloads them. Slices no longer owned are dropped from the queue (a
     * later acquisition loads them afresh); slices still unsafe stay queued.
     *
     * @return the slices to reload now
     */
    List<Long> reloadable() {
        List<Long> out = new ArrayList<>();
        long now = nanoTime.getAsLong();
        // A copy: timer threads may add while this runs; what they add after it is taken next round.
        for (Long slice : new ArrayList<>(refused)) {
            Lease lease = owned.get(slice);
            if (lease == null) {
                refused.remove(slice);
            } else if (now - lease.safeUntilNanos < 0 && refused.remove(slice)) {
                out.add(slice);
            }
        }
        return out;
    }

    /** The fencing token for a write about {@code t}: its slice's epoch, or -1 if the slice is not owned. */
    long epochFor(final StoredTimeout t) {
        Lease lease = owned.get(sliceOf(t));
        return lease == null ? -1 : lease.epoch;
    }

    boolean owns(final long slice) {
        return owned.containsKey(slice);
    }

    boolean holds(final TimeoutKey key) {
        return held.containsKey(key);
    }

    /** Records a slice just acquired; {@code sentNanos} is when the acquire statement was sent. */
    void acquired(final long slice, final long epoch, final long sentNanos) {
        owned.put(slice, new Lease(epoch, sentNanos + leaseNanos - marginNanos));
    }

    /** The owned slices and their epochs, for renew, finish and release. */
    Map<Long, Long> snapshot() {
        Map<Long, Long> out = new HashMap<>();
        owned.forEach((slice, lease) -> out.put(slice, lease.epoch));
        return out;
    }

    /**
     * Applies a renewal's answer: slices asked for and still held get a new {@code safeUntil}; the
     * others are lost (another process acquired them) and forgotten.
     *
     * @return the lost slices
     */
    List<Long> renewed(final Map<Long, Long> asked, final Set<Long> stillHeld, final long sentNanos) {
        List<Long> lost = new ArrayList<>();
        for (Map.Entry<Long, Long> e : asked.entrySet()) {
            Lease lease = owned.get(e.getKey());
            if (lease == null || lease.epoch != e.getValue()) {
                continue;
            }
            if (stillHeld.contains(e.getKey())) {
                lease.safeUntilNanos = sentNanos + leaseNanos - marginNanos;
            } else {
                owned.remove(e.getKey(), lease);
                lost.add(e.getKey());
            }
        }
        return lost;
    }

    /** Forgets a slice (finished, released or lost) and returns what was delivered from it, to revoke. */
    List<StoredTimeout> forget(final long slice) {
        owned.remove(slice);
        List<StoredTimeout> dropped = new ArrayList<>();
        held.values().removeIf(h -> {
            boolean in = sliceOf(h.timeout()) == slice;
            if (in && !h.finished()) {
                dropped.add(h.timeout());
            }
            return in;
        });
        return dropped;
    }

    /** True (and recorded) if {@code t} lies in an owned slice and is newer than what was delivered. */
    boolean deliverable(final StoredTimeout t) {
        if (!owned.containsKey(sliceOf(t))) {
            return false;
        }
        boolean[] newer = new boolean[1];
        held.compute(TimeoutKey.of(t), (k, old) -> {
            newer[0] = old == null || old.timeout().version() < t.version();
            return newer[0] ? new Held(t, false) : old;
        });
        return newer[0];
    }

    /** Forgets the delivery of {@code t} that the sink refused (it threw), so a later load delivers it again. */
    void undelivered(final StoredTimeout t) {
        held.computeIfPresent(TimeoutKey.of(t), (k, h) -> h.timeout().sameIncarnation(t) && !h.finished() ? null : h);
    }

    /** Drops the recorded incarnation of a key (cancelled, moved away); returns it if still unfinished. */
    StoredTimeout drop(final TimeoutKey key) {
        Held h = held.remove(key);
        return h == null || h.finished() ? null : h.timeout();
    }

    /** Marks {@code t} finished after its outcome was written (if it is still the recorded incarnation). */
    void finished(final StoredTimeout t) {
        held.computeIfPresent(TimeoutKey.of(t),
                (k, old) -> old.timeout().sameIncarnation(t) ? new Held(t, true) : old);
    }

    /** The keys of every delivered timeout, for a resync after missed notifications. */
    List<TimeoutKey> heldKeys() {
        return new ArrayList<>(held.keySet());
    }

    int heldCount() {
        return held.size();
    }

    /** Stops every claim from now on (close). */
    void close() {
        closed = true;
    }
}
