package io.tickwheel.postgres;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Argument checks at the store's public boundary; every exception names the argument. The limits
 * are SPEC.md's for durable timeouts, plus what PostgreSQL's {@code text} cannot hold (NUL).
 *
 * <p>Threading: stateless.
 */
final class Args {

    static final int MAX_TYPE_CHARS = 128;
    static final int MAX_KEY_BYTES = 512;
    static final int MAX_PAYLOAD_BYTES = 1 << 20;

    private Args() {
    }

    static void timeout(final String type, final String key, final byte[] payload, final Instant deadline) {
        text("type", type);
        if (type.length() > MAX_TYPE_CHARS) {
            throw new IllegalArgumentException("type must be at most " + MAX_TYPE_CHARS + " characters, was "
                    + type.length());
        }
        text("key", key);
        int keyBytes = key.getBytes(StandardCharsets.UTF_8).length;
        if (keyBytes > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("key must be at most " + MAX_KEY_BYTES + " bytes of UTF-8, was "
                    + keyBytes);
        }
        Objects.requireNonNull(payload, "payload");
        if (payload.length > MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("payload must be at most " + MAX_PAYLOAD_BYTES + " bytes, was "
                    + payload.length);
        }
        micros("deadline", deadline);
    }

    static void text(final String name, final String value) {
        Objects.requireNonNull(value, name);
        if (value.isEmpty()) {
            throw new IllegalArgumentException(name + " must not be empty");
        }
        if (value.indexOf('\u0000') >= 0) {
            throw new IllegalArgumentException(name + " must not contain the NUL character (PostgreSQL text cannot"
                    + " hold it)");
        }
    }

    static long micros(final String name, final Instant instant) {
        Objects.requireNonNull(instant, name);
        try {
            return Notice.micros(instant);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(name + " is out of range (must fit in microseconds since 1970 as"
                    + " a signed 64-bit number), was " + instant, e);
        }
    }

    static Duration lease(final Duration lease) {
        Objects.requireNonNull(lease, "lease");
        if (lease.compareTo(Duration.ofSeconds(1)) < 0 || lease.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("lease must be between 1 s and 1 h, was " + lease);
        }
        return lease;
    }
}
