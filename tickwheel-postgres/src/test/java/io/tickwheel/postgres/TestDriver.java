package io.tickwheel.postgres;

import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Plays the DurableTimer's role for the store's tests: holds what the store delivers in a wheel,
 * claims at the deadline, runs the "handler" (a consumer), records done. Deliberately small: the real
 * timer is another module's job.
 *
 * <p>Threading: sink calls and wheel expiries synchronise on {@code this}; the handler runs on the
 * wheel's worker thread.
 */
final class TestDriver implements TimerStore.Sink, AutoCloseable {

    private final TimerStore store;
    private final Consumer<StoredTimeout> handler;
    private final Timer wheel = HierarchicalWheelTimer.builder().build();
    private final Map<TimeoutKey, Held> held = new HashMap<>();
    private final Clock clock = Clock.systemUTC();
    /** Done writes that failed (the timeout fires again later); tests may check it. */
    final AtomicInteger doneErrors = new AtomicInteger();

    private record Held(StoredTimeout timeout, Timeout wheelTimeout) {
    }

    TestDriver(final TimerStore store, final Consumer<StoredTimeout> handler) {
        this.store = store;
        this.handler = handler;
    }

    TestDriver open() {
        store.open(this, clock);
        return this;
    }

    @Override
    public synchronized void deliver(final StoredTimeout t) {
        TimeoutKey key = TimeoutKey.of(t);
        Held old = held.get(key);
        if (old != null) {
            if (old.timeout().version() >= t.version()) {
                return;
            }
            old.wheelTimeout().cancel();
        }
        long delayNanos = Math.max(0, Duration.between(clock.instant(), t.deadline()).toNanos());
        // A wheel may fire up to a tick late but never early; round up so that holds by the wall clock too.
        Timeout wt = wheel.newTimeout(x -> fire(t), delayNanos + 1_000_000, TimeUnit.NANOSECONDS);
        held.put(key, new Held(t, wt));
    }

    @Override
    public synchronized void revoke(final String type, final String key, final long version) {
        TimeoutKey k = new TimeoutKey(type, key);
        Held old = held.get(k);
        if (old != null && old.timeout().version() <= version) {
            old.wheelTimeout().cancel();
            held.remove(k);
        }
    }

    private void fire(final StoredTimeout t) {
        synchronized (this) {
            Held h = held.get(TimeoutKey.of(t));
            if (h == null || h.timeout().version() != t.version()) {
                return;
            }
            held.remove(TimeoutKey.of(t));
        }
        if (Instant.now().isBefore(t.deadline())) {
            throw new AssertionError("fired early: " + t);
        }
        if (store.claim(t)) {
            handler.accept(t);
            var unused = store.done(t).whenComplete((v, e) -> {
                if (e != null) {
                    doneErrors.incrementAndGet();
                }
            });
        }
    }

    TimerStore store() {
        return store;
    }

    synchronized int heldCount() {
        return held.size();
    }

    @Override
    public void close() {
        wheel.stop();
        store.close();
    }
}
