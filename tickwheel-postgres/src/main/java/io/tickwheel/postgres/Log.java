package io.tickwheel.postgres;

import java.lang.System.Logger.Level;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The store's logger, with a rate limit per message kind, so a database that is down for a minute
 * yields a handful of warnings instead of one per poll.
 *
 * <p>Threading: thread-safe (a concurrent map of last-log times).
 */
final class Log {

    static final System.Logger LOGGER = System.getLogger("io.tickwheel.postgres");
    private static final long QUIET_NANOS = 10_000_000_000L;

    private final ConcurrentHashMap<String, Long> lastNanos = new ConcurrentHashMap<>();

    /** Logs at WARNING unless the same kind was logged in the last 10 s. */
    void warn(final String kind, final String message, final Throwable error) {
        long now = System.nanoTime();
        Long last = lastNanos.get(kind);
        if (last != null && now - last < QUIET_NANOS) {
            return;
        }
        lastNanos.put(kind, now);
        LOGGER.log(Level.WARNING, message, error);
    }
}
