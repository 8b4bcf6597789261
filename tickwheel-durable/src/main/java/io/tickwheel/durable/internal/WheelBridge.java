package io.tickwheel.durable.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
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
 * held here, unarmed, and a re-arm thread of this bridge (started on the first refusal, gone once
 * nothing is left to arm) tries again with backoff from {@value #FIRST_BACKOFF_MILLIS} ms up to a
 * second, until the wheel takes it. It cannot be handed back to the store: the store marked it
 * delivered and does not deliver it again, so dropping it here would leave it pending until a
 * restart. A refused clock ticker is re-armed the same way.
 *
 * <p>Threading: thread-safe (via a {@code ConcurrentHashMap}; a held timeout is handed to the runner
 * by whoever removes it from the map, so at most once). Each held timeout has one owner that may arm
 * it: whoever delivered it, then the wheel (its check, or the ticker after cancelling its wheel
 * timeout), or, after a refusal, the re-arm thread alone: a refused arm leaves no live wheel timeout
 * (none was made, or the one it replaces was already cancelled or expired), so neither the wheel nor
 * the ticker can reach it again, and the re-arm thread is the only one that arms it. A wheel timeout
 * armed for a timeout revoked meanwhile does nothing when it fires ({@link #check} finds it gone).
 */
public final class WheelBridge implements TimerStore.Sink {

    private static final long JUMP_MILLIS = 250;
    private static final long FIRST_BACKOFF_MILLIS = 10;
    private static final long MAX_BACKOFF_MILLIS = 1000;
    private static final System.Logger LOG = System.getLogger(WheelBridge.class.getName());

    private final Timer wheel;
    private final Clock clock;
    private final Consumer<StoredTimeout> onDue;
    private final Map<Key, Held> held = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private volatile Timeout ticker;
    /** Held timeouts the wheel refused; polled by the re-arm thread only. */
    private final Queue<Refused> refused = new ConcurrentLinkedQueue<>();
    /** Whether the clock ticker is to be re-armed by the re-arm thread (the wheel refused it). */
    private volatile boolean tickerRefused;
    /** Whether a re-arm thread runs (or is being started). */
    private final AtomicBoolean rearming = new AtomicBoolean();
    private volatile Thread rearmThread;
    /** Ticker thread only (one tick at a time). */
    private long lastClockMillis;
    private long lastNanos;

    /**
     * Creates a bridge; call {@link #start()} once the store may deliver.
     *
     * @param wheel the wheel
     * @param clock the timer's clock
     * @param onDue gets each timeout once it is due (on the wheel's thread; keep it short)
     */
    public WheelBridge(final Timer wheel, final Clock clock, final Consumer<StoredTimeout> onDue) {
        this.wheel = wheel;
        this.clock = clock;
        this.onDue = onDue;
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
            arm(k, h);
        }
        if (!refused.isEmpty()) {
            startRearming(null); // in case the re-arm thread could not be started before
        }
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

    private void arm(final Key k, final Held h) {
        Duration left = Duration.between(clock.instant(), h.timeout.deadline());
        if (left.isNegative() || left.isZero()) {
            due(k, h);
            return;
        }
        try {
            h.wheelTimeout = wheel.newTimeout(t -> check(k, h), left);
        } catch (RuntimeException | Error e) {
            // The wheel refused (its pending limit, stopped) or threw an Error (no thread for its
            // worker): keep it held and let the re-arm thread try again. Dropping it would strand it:
            // the store counts it as delivered and never delivers it again in this process.
            if (!closed) {
                refused.add(new Refused(k, h));
                startRearming(e);
            }
        }
    }

    private void startRearming(final Throwable cause) {
        if (closed || !rearming.compareAndSet(false, true)) {
            return;
        }
        LOG.log(Level.WARNING, "the wheel refused a durable timeout (or the clock ticker); it stays held and "
                + "is armed again when the wheel takes it", cause);
        try {
            Thread t = new Thread(this::rearmLoop, "tickwheel-durable-rearm");
            t.setDaemon(true);
            rearmThread = t;
            t.start();
        } catch (RuntimeException | Error e) {
            rearming.set(false);
            LOG.log(Level.ERROR, "cannot start the re-arm thread; trying again at the next delivery or tick", e);
        }
    }

    /** The re-arm thread: arms what the wheel refused, with backoff, until nothing is left. */
    private void rearmLoop() {
        long backoff = FIRST_BACKOFF_MILLIS;
        while (!closed) {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(backoff));
            if (closed) {
                break;
            }
            if (tickerRefused) {
                tickerRefused = false;
                armTicker();
            }
            for (int n = refused.size(); n > 0; n--) {
                Refused r = refused.poll();
                if (r == null) {
                    break;
                }
                if (held.get(r.key) == r.held) { // else revoked, replaced or fired meanwhile
                    arm(r.key, r.held); // a refusal queues it again
                }
            }
            if (refused.isEmpty() && !tickerRefused) {
                rearming.set(false);
                // A refusal queued after the check above saw rearming still set and started no thread.
                if ((refused.isEmpty() && !tickerRefused) || !rearming.compareAndSet(false, true)) {
                    return;
                }
            }
            backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
        }
        rearming.set(false);
    }

    private void armTicker() {
        try {
            ticker = wheel.newTimeout(t -> tick(), 1, TimeUnit.SECONDS);
        } catch (RuntimeException | Error e) {
            // Nothing else re-arms the ticker; clock jumps would no longer be followed.
            if (!closed) {
                tickerRefused = true;
                startRearming(e);
            }
        }
    }

    private void check(final Key k, final Held h) {
        if (held.get(k) != h) {
            return;
        }
        Instant now = clock.instant();
        if (now.isBefore(h.timeout.deadline())) {
            arm(k, h);
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
                    arm(e.getKey(), h);
                }
            }
        }
        armTicker();
        if (!refused.isEmpty()) {
            startRearming(null);
        }
    }

    /** Drops every held timeout (they stay pending in the store) and stops the ticker. */
    public void close() {
        closed = true;
        Thread r = rearmThread;
        if (r != null) {
            LockSupport.unpark(r);
        }
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

    /** A held timeout the wheel refused to arm. */
    private record Refused(Key key, Held held) {
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
