package io.tickwheel.micrometer;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The last statistics snapshot of one bound timer, shared by every meter of that binding, so that
 * one scrape (which reads the meters one after another) copies the timer's counters and histograms
 * once, not once per meter, and its meters agree with each other (a count and its histogram come
 * from the same instant).
 *
 * <p>A snapshot is reused while it is younger than {@link #MAX_AGE}, measured from just before it
 * was taken. 100 ms is far longer than one scrape reads the ~20 meters of a binding (microseconds;
 * tens of milliseconds in a registry of many thousands of meters), so one scrape shares one snapshot,
 * and far shorter than any sensible scrape or push interval (Prometheus and Micrometer's step
 * registries poll every few seconds at most), so two scrapes never share one and no scrape reads a
 * value more than 100 ms old. Registries that poll at the same moment share it too.
 *
 * <p>The memo holds the snapshot, never the timer: the timer is passed to {@link #get} by the
 * meter, which holds it weakly, and {@code source} must not hold it either (a static method or an
 * unbound method reference), so binding never keeps a stopped timer reachable.
 *
 * <p>Threading: thread-safe; any thread (several registries, or one registry's scrape threads) may
 * call {@link #get}, without confinement. The fast path is one volatile read of {@link #last}: its
 * volatile write in {@link #refresh} happens-before every read that sees it, so a reader sees the
 * {@link Taken} and the snapshot in it complete (both are immutable as well, with final fields, so
 * even a racy read could not see them half-built). Refreshing takes {@link #refreshing}, so that
 * readers racing past the expiry take one snapshot between them, not one each: the second re-checks
 * under the lock and finds the first one's. Waiting there costs at most one snapshot (a ~15 KB copy
 * for a wheel timer, counters only for a durable one; neither blocks). A {@code ReentrantLock}, not
 * {@code synchronized}, so that a virtual thread waiting for it does not pin its carrier. Published
 * snapshots never go backwards: each is taken after the one it replaces was published.
 *
 * @param <T> the timer
 * @param <S> its snapshot, immutable
 */
final class SnapshotMemo<T, S> {

    /** How long a snapshot is reused; see the class comment for why 100 ms. */
    static final Duration MAX_AGE = Duration.ofMillis(100);

    /** A snapshot and the {@code clock} reading just before it was taken. */
    private record Taken<V>(V snapshot, long takenAt) { }

    private final Function<? super T, ? extends S> source;
    private final LongSupplier clock;
    private final long maxAgeNanos;
    private final ReentrantLock refreshing = new ReentrantLock();
    /** Null until the first read; then replaced, under {@link #refreshing}, only by a younger one. */
    private volatile Taken<S> last;

    /**
     * Creates a memo that reuses a snapshot for {@link #MAX_AGE} by {@link System#nanoTime()}.
     *
     * @param source takes a snapshot of the timer given; must not hold a timer itself
     */
    SnapshotMemo(final Function<? super T, ? extends S> source) {
        this(source, System::nanoTime, MAX_AGE);
    }

    /**
     * The seam for tests: any snapshot source, clock and maximum age.
     *
     * @param source takes a snapshot of the timer given; must not hold a timer itself
     * @param clock nanoseconds, monotonic, like {@link System#nanoTime()}
     * @param maxAge how long a snapshot is reused; zero takes one on every read
     */
    SnapshotMemo(final Function<? super T, ? extends S> source, final LongSupplier clock, final Duration maxAge) {
        this.source = Objects.requireNonNull(source, "source");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (maxAge.isNegative()) {
            throw new IllegalArgumentException("maxAge: " + maxAge + " is negative");
        }
        this.maxAgeNanos = maxAge.toNanos();
    }

    /**
     * Returns the last snapshot if it is younger than the maximum age, or else a new one of
     * {@code timer}, which every meter then shares.
     *
     * @param timer the timer, as the meter's weak reference returned it
     * @return the snapshot
     */
    S get(final T timer) {
        Taken<S> seen = last;
        if (fresh(seen)) {
            return seen.snapshot();
        }
        return refresh(timer);
    }

    private S refresh(final T timer) {
        refreshing.lock();
        try {
            Taken<S> seen = last;
            if (fresh(seen)) {
                return seen.snapshot(); // another reader refreshed it while this one waited
            }
            long now = clock.getAsLong();
            S snapshot = Objects.requireNonNull(source.apply(timer), "snapshot");
            last = new Taken<>(snapshot, now);
            return snapshot;
        } finally {
            refreshing.unlock();
        }
    }

    /** Overflow-safe, as {@code nanoTime} readings must be compared: by their difference. */
    private boolean fresh(final Taken<S> taken) {
        return taken != null && clock.getAsLong() - taken.takenAt() < maxAgeNanos;
    }
}
