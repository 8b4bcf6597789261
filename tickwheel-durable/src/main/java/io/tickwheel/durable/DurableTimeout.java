package io.tickwheel.durable;

import java.time.Instant;

/**
 * One durable timeout as a handler, {@link DurableTimer#find} or {@link DurableTimer#failed()} sees
 * it: a type (the handler's name), a key unique within the type, a payload, and a wall-clock
 * deadline.
 *
 * <p>Threading: immutable.
 */
public interface DurableTimeout {

    /**
     * The handler's name.
     *
     * @return the type, never empty
     */
    String type();

    /**
     * The key, unique within the type: scheduling the same type and key again replaces the pending
     * timeout, and a handler uses it as its idempotency key.
     *
     * @return the key, never empty
     */
    String key();

    /**
     * The payload stored with the timeout.
     *
     * @return a copy, so callers may change it freely
     */
    byte[] payload();

    /**
     * When the timeout is due, by the {@link DurableTimer}'s clock.
     *
     * @return the deadline (for a retried timeout, the time of its next attempt)
     */
    Instant deadline();

    /**
     * Which run this is.
     *
     * @return 1 on the first run, 2 on the first retry, and so on
     */
    int attempt();
}
