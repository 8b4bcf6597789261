package io.tickwheel.bench.cluster;

import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The timer's side of the {@link TimerStore} contract, reduced to what the cluster benchmark needs:
 * hold what the store delivers in a {@link HierarchicalWheelTimer}, claim at the deadline, run the
 * handler on the wheel's worker, record {@code done}. It stands in for {@code DurableTimer}, whose
 * retries, executor and statistics the benchmark does not exercise.
 *
 * <p>Threading: sink calls and expiries synchronise on {@code this}; handlers run on the wheel's worker.
 */
final class WheelDriver implements TimerStore.Sink, AutoCloseable {

    private record Key(String type, String key) {
    }

    private record Held(StoredTimeout timeout, Timeout wheelTimeout) {
    }

    private final TimerStore store;
    private final Consumer<StoredTimeout> handler;
    private final Timer wheel = HierarchicalWheelTimer.builder().build();
    private final Map<Key, Held> held = new HashMap<>();
    private final Clock clock = Clock.systemUTC();

    WheelDriver(final TimerStore store, final Consumer<StoredTimeout> handler) {
        this.store = store;
        this.handler = handler;
    }

    void open() {
        store.open(this, clock);
    }

    @Override
    public synchronized void deliver(final StoredTimeout t) {
        Key key = new Key(t.type(), t.key());
        Held old = held.get(key);
        if (old != null) {
            if (old.timeout().version() >= t.version()) {
                return;
            }
            old.wheelTimeout().cancel();
        }
        long delayNanos = Math.max(0, Duration.between(clock.instant(), t.deadline()).toNanos());
        held.put(key, new Held(t, wheel.newTimeout(x -> fire(t), delayNanos, TimeUnit.NANOSECONDS)));
    }

    @Override
    public synchronized void revoke(final String type, final String key, final long version) {
        Key k = new Key(type, key);
        Held old = held.get(k);
        if (old != null && old.timeout().version() <= version) {
            old.wheelTimeout().cancel();
            held.remove(k);
        }
    }

    // done() is recorded lazily; a failed one only means the store fires the timeout again.
    @SuppressWarnings("FutureReturnValueIgnored")
    private void fire(final StoredTimeout t) {
        synchronized (this) {
            Held h = held.get(new Key(t.type(), t.key()));
            if (h == null || h.timeout().version() != t.version()) {
                return;
            }
            held.remove(new Key(t.type(), t.key()));
        }
        if (store.claim(t)) {
            handler.accept(t);
            store.done(t);
        }
    }

    @Override
    public void close() {
        wheel.stop();
        store.close();
    }
}
