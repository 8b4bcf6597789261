package io.tickwheel.durable.internal;

import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * Sink calls collected under the store's lock and made after it is released, in the order they were
 * collected (the SPI forbids calling the sink while holding a lock a caller could wait for).
 *
 * <p>Threading: not thread-safe; confined to the thread that collects and runs it.
 */
public final class SinkCalls {

    private static final System.Logger LOG = System.getLogger(SinkCalls.class.getName());

    private final List<Object> calls = new ArrayList<>();

    /**
     * Collects a delivery.
     *
     * @param t the timeout
     */
    public void deliver(final StoredTimeout t) {
        calls.add(t);
    }

    /**
     * Collects a revoke.
     *
     * @param type    type
     * @param key     key
     * @param version the highest version to drop
     */
    public void revoke(final String type, final String key, final long version) {
        calls.add(new Revoke(type, key, version));
    }

    /**
     * Whether nothing was collected.
     *
     * @return true if empty
     */
    public boolean isEmpty() {
        return calls.isEmpty();
    }

    /**
     * Makes the calls and forgets them; a sink that throws is logged and does not stop the rest.
     *
     * @param sink the sink
     */
    public void run(final TimerStore.Sink sink) {
        try {
            for (Object c : calls) {
                try {
                    if (c instanceof Revoke r) {
                        sink.revoke(r.type, r.key, r.version);
                    } else {
                        sink.deliver((StoredTimeout) c);
                    }
                } catch (RuntimeException | Error e) {
                    LOG.log(Level.ERROR, "the timer's sink threw on " + c + "; the store goes on", e);
                }
            }
        } finally {
            calls.clear(); // even if logging threw: the next batch must not repeat these calls
        }
    }

    private record Revoke(String type, String key, long version) {
    }
}
