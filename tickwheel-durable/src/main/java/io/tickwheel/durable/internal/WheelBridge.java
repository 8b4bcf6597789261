package io.tickwheel.durable.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The sink a store delivers into: holds each delivered timeout in the in-memory wheel until its
 * deadline by the timer's {@link Clock}, then hands it to the runner. The wheel counts
 * {@code System.nanoTime}; deadlines are read on the clock, so:
 * <ul>
 *   <li><b>Never early.</b> When the wheel fires a timeout, the clock is read again; if it is still
 *       before the deadline (the clock went back, or runs slow), the timeout is armed again for the
 *       rest.</li>
 *   <li><b>Forward jumps.</b> A ticker on the wheel reads the clock every second; when it moved more
 *       than {@value #JUMP_MILLIS} ms away from where {@code nanoTime} says it should be, every held
 *       timeout is armed again from the new reading, so what became due fires within about a
 *       second.</li>
 * </ul>
 * One {@link Held} per (type, key): a delivery with a higher version replaces it, a lower one is
 * ignored, and a revoke drops it (the wheel timeout is cancelled).
 *
 * <p><b>A wheel that refuses.</b> If {@code newTimeout} throws (the wheel's pending limit, or an
 * {@code Error} such as {@code OutOfMemoryError: unable to create native thread}), the timeout stays
 * held here, unarmed, and {@link RefusedWork}'s thread tries again with backoff until the wheel
 * takes it. It cannot be handed back to the store: the store marked it delivered and does not
 * deliver it again, so dropping it here would leave it pending until a restart. A refused clock
 * ticker is re-armed the same way. A clock that throws where a held timeout is armed or checked is
 * treated as a refusal (the retry thread asks it again); one that throws in the ticker costs that
 * tick's jump check, and the ticker is armed again all the same.
 *
 * <p>Threading: thread-safe (via a {@code ConcurrentHashMap}; a held timeout is handed to the runner
 * by whoever removes it from the map, so at most once). Each held timeout has one owner that may arm
 * it: whoever delivered it, then the wheel (its check, or the ticker after cancelling its wheel
 * timeout), or, after a refusal, the retry thread alone: a refused arm leaves no live wheel timeout
 * (none was made, or the one it replaces was already cancelled or expired), so neither the wheel nor
 * the ticker can reach it again, and the retry thread is the only one that arms it. A wheel timeout
 * armed for a timeout revoked meanwhile does nothing when it fires ({@link #check} finds it gone).
 * Due timeouts reach the runner only on the wheel's thread or the retry thread, never on a store's
 * thread that called {@link #deliver} (see {@link #arm}).
 */
public final class WheelBridge implements TimerStore.Sink {

    private static final long JUMP_MILLIS = 250;

    private final Timer wheel;
    private final Clock clock;
    private final Consumer<StoredTimeout> onDue;
    private final Map<Key, Held> held = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private volatile Timeout ticker;
    /** Where a refused arm (of a held timeout or of the ticker) goes to be tried again. */
    private final RefusedWork refused;
    /** Ticker thread only (one tick at a time). */
    private long lastClockMillis;
    private long lastNanos;

    /**
     * Creates a bridge; call {@link #start()} once the store may deliver.
     *
     * @param wheel the wheel
     * @param clock the timer's clock
     * @param onDue gets each timeout once it is due (on the wheel's thread; keep it short)
     * @param refused where refused arms are tried again (closed by the owner, after this bridge)
     */
    public WheelBridge(final Timer wheel, final Clock clock, final Consumer<StoredTimeout> onDue,
            final RefusedWork refused) {
        this.wheel = wheel;
        this.clock = clock;
        this.onDue = onDue;
        this.refused = refused;
    }

    /** Starts the clock ticker. */
    public void start() {
        lastClockMillis = clock.millis();
        lastNanos = System.nanoTime();
        ticker = wheel.newTimeout(t -> tick(), 1, TimeUnit.SECONDS);
    }

    @Override
    public void deliver(final StoredTimeout t) {
        if (closed) {
            return;
        }
        Key k = new Key(t.type(), t.key());
        Held h = new Held(t);
        Held[] replaced = new Held[1];
        Held now = held.compute(k, (key, old) -> {
            if (old != null && old.timeout.version() >= t.version()) {
                return old;
            }
            replaced[0] = old;
            return h;
        });
        if (replaced[0] != null) {
            replaced[0].cancel();
        }
        if (now == h) {
            arm(k, h, false);
        }
        refused.kick(); // in case its thread could not be started before
    }

    @Override
    public void revoke(final String type, final String key, final long version) {
        Key k = new Key(type, key);
        Held h = held.get(k);
        if (h != null && h.timeout.version() <= version && held.remove(k, h)) {
            h.cancel();
        }
    }

    /**
     * How many timeouts the wheel holds for this timer.
     *
     * @return the count
     */
    public int held() {
        return held.size();
    }

    /**
     * Arms {@code h} on the wheel for what is left until its deadline, or, if it is due, hands it
     * to the runner: here if {@code inline}, else through the wheel at its next tick. A store's
     * thread (the journal's writer, its scanner) delivers with {@code inline} false: the runner's
     * executor may run the handler on the submitting thread (a saturated pool with
     * {@code CallerRunsPolicy}, a direct executor), and a handler there that schedules and waits for
     * the store would wait for its own thread.
     */
    private void arm(final Key k, final Held h, final boolean inline) {
        Instant now;
        try {
            now = clock.instant();
        } catch (RuntimeException | Error e) {
            retry(k, h, e); // a clock that throws: ask it again later rather than strand the timeout
            return;
        }
        Duration left = Duration.between(now, h.timeout.deadline());
        if (left.isNegative() || left.isZero()) {
            if (inline) {
                due(k, h);
                return;
            }
            left = Duration.ZERO;
        }
        try {
            h.wheelTimeout = wheel.newTimeout(t -> check(k, h), left);
        } catch (RuntimeException | Error e) {
            // The wheel refused (its pending limit, stopped) or threw an Error (no thread for its
            // worker): keep it held and let the re-arm thread try again. Dropping it would strand it:
            // the store counts it as delivered and never delivers it again in this process.
            retry(k, h, e);
        }
    }

    /** Hands an arm that failed, with no live wheel timeout left for {@code h}, to the retry thread. */
    private void retry(final Key k, final Held h, final Throwable cause) {
        if (!closed) {
            refused.add(() -> rearm(k, h), cause);
        }
    }

    /** The retry thread's attempt: arms {@code h} unless it was revoked, replaced or fired meanwhile. */
    private void rearm(final Key k, final Held h) {
        if (!closed && held.get(k) == h) {
            arm(k, h, true); // a refusal queues it again
        }
    }

    private void armTicker() {
        try {
            ticker = wheel.newTimeout(t -> tick(), 1, TimeUnit.SECONDS);
        } catch (RuntimeException | Error e) {
            // Nothing else re-arms the ticker; clock jumps would no longer be followed.
            if (!closed) {
                refused.add(this::armTicker, e);
            }
        }
    }

    private void check(final Key k, final Held h) {
        if (held.get(k) != h) {
            return;
        }
        Instant now;
        try {
            now = clock.instant();
        } catch (RuntimeException | Error e) {
            retry(k, h, e); // this wheel timeout has fired: nothing else would ever look at h again
            return;
        }
        if (now.isBefore(h.timeout.deadline())) {
            arm(k, h, true);
        } else {
            due(k, h);
        }
    }

    private void due(final Key k, final Held h) {
        if (held.remove(k, h)) {
            onDue.accept(h.timeout);
        }
    }

    private void tick() {
        if (closed) {
            return;
        }
        try {
            followClockJumps();
        } finally {
            // Even if the clock threw (which the wheel then logs): a ticker not re-armed here is
            // never re-armed, and clock jumps would no longer be followed.
            armTicker();
            refused.kick();
        }
    }

    private void followClockJumps() {
        long nanos = System.nanoTime();
        long clockMillis = clock.millis();
        long expected = lastClockMillis + TimeUnit.NANOSECONDS.toMillis(nanos - lastNanos);
        lastClockMillis = clockMillis;
        lastNanos = nanos;
        if (Math.abs(clockMillis - expected) > JUMP_MILLIS) {
            for (Map.Entry<Key, Held> e : held.entrySet()) {
                Held h = e.getValue();
                Timeout wt = h.wheelTimeout;
                if (wt != null && wt.cancel()) {
                    arm(e.getKey(), h, true); // a clock that throws now hands h to the retry thread
                }
            }
        }
    }

    /** Drops every held timeout (they stay pending in the store) and stops the ticker. */
    public void close() {
        closed = true;
        Timeout t = ticker;
        if (t != null) {
            t.cancel();
        }
        for (Held h : held.values()) {
            h.cancel();
        }
        held.clear();
    }

    private record Key(String type, String key) {
    }

    /** One delivered timeout and its current wheel timeout. */
    private static final class Held {
        final StoredTimeout timeout;
        /** Written by whoever arms it, read by the ticker and by cancel: volatile. */
        volatile Timeout wheelTimeout;

        Held(final StoredTimeout timeout) {
            this.timeout = timeout;
        }

        void cancel() {
            Timeout t = wheelTimeout;
            if (t != null) {
                t.cancel();
            }
        }
    }
}
