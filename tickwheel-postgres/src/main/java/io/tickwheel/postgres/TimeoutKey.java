package io.tickwheel.postgres;

import io.tickwheel.durable.StoredTimeout;

/**
 * A timeout's identity in the table: its type and key (the primary key), without a version.
 *
 * <p>Threading: immutable.
 *
 * @param type the handler's name
 * @param key  the key, unique within the type
 */
record TimeoutKey(String type, String key) {

    static TimeoutKey of(final StoredTimeout t) {
        return new TimeoutKey(t.type(), t.key());
    }
}
