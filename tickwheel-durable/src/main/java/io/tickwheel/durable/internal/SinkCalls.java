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
 * <p>Threading: not thread-safe; confined to the thread that collects and runs it. {@link #handOver}
 * is static: the writer and the scanner each call it on their own thread.
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
     * Makes the calls and forgets them; a sink that throws is logged and does not stop the rest, and a
     * delivery it threw on goes back to the scanner ({@link #handOver}).
     *
     * @param sink the sink
     * @param core the state, whose lock this takes for a delivery that failed (not held on entry)
     */
    public void run(final TimerStore.Sink sink, final JournalCore core) {
        try {
            for (Object c : calls) {
                if (c instanceof Revoke r) {
                    try {
                        sink.revoke(r.type, r.key, r.version);
                    } catch (Throwable e) {
                        log("the timer's sink threw on " + c + "; the store goes on", e);
                    }
                } else {
                    handOver(sink, (StoredTimeout) c, core);
                }
            }
        } finally {
            calls.clear(); // even if logging threw: the next batch must not repeat these calls
        }
    }

    /**
     * Delivers one timeout. If the sink throws, the timer may not hold it, yet its slot is marked
     * delivered, which the scanner skips: it would not fire in this process. So it goes back among
     * the undelivered ({@link JournalCore#redeliver}) and the scanner delivers it again.
     *
     * @param sink the sink
     * @param t    the timeout, marked delivered
     * @param core the state, whose lock this takes if the sink throws (not held on entry)
     * @return whether the sink took it
     */
    static boolean handOver(final TimerStore.Sink sink, final StoredTimeout t, final JournalCore core) {
        try {
            sink.deliver(t);
            return true;
        } catch (Throwable e) {
            try {
                synchronized (core) {
                    core.redeliver(t);
                }
            } catch (Throwable again) {
                e.addSuppressed(again);
            }
            log("the timer's sink threw on " + t + "; it stays pending and is delivered again", e);
            return false;
        }
    }

    private static void log(final String message, final Throwable e) {
        QuietLog.log(LOG, Level.ERROR, message, e);
    }

    private record Revoke(String type, String key, long version) {
    }
}
