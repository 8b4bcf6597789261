package io.tickwheel.postgres;

import java.time.Instant;

/**
 * The notification payloads sent on a table's channel, and the slice arithmetic they rely on.
 *
 * <p>A change notice is {@code "<slice> <typeLength> <type><key>"}: the slice the timeout now
 * lives in (or lived in, for a cancel), then the type prefixed by its length so that any character
 * may appear in a type or key. {@link #RELEASED} says that a process gave its slices back. Payloads
 * stay well under PostgreSQL's 8000-byte limit because types are at most 128 characters and keys at
 * most 512 bytes.
 *
 * <p>Threading: immutable.
 *
 * @param slice the slice, or {@link Long#MIN_VALUE} for {@link #RELEASED}
 * @param type  the handler's name, or null for {@link #RELEASED}
 * @param key   the key, or null for {@link #RELEASED}
 */
record Notice(long slice, String type, String key) {

    /** The payload that says "slices were released: acquire now". */
    static final String RELEASED = "R";

    /** Slices are one second long; the length is part of the table format (see schema.sql). */
    static final long SLICE_MICROS = 1_000_000L;

    /**
     * The slice of a deadline.
     *
     * @param deadlineMicros microseconds since the epoch
     * @return {@code floor(deadlineMicros / SLICE_MICROS)}
     */
    static long sliceOf(final long deadlineMicros) {
        return Math.floorDiv(deadlineMicros, SLICE_MICROS);
    }

    /**
     * Microseconds since the epoch, rounded up so that a stored deadline is never earlier than asked.
     *
     * @param instant the instant
     * @return the microseconds
     * @throws ArithmeticException if it does not fit in a long
     */
    static long micros(final Instant instant) {
        long sub = (instant.getNano() + 999L) / 1000L;
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), sub);
    }

    /**
     * The instant of a stored deadline.
     *
     * @param micros microseconds since the epoch
     * @return the instant
     */
    static Instant instant(final long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /** The part of a change notice after the slice. */
    static String suffix(final String type, final String key) {
        return type.length() + " " + type + key;
    }

    /** A whole change notice. */
    static String of(final long slice, final String type, final String key) {
        return slice + " " + suffix(type, key);
    }

    /** Whether this is the {@link #RELEASED} notice. */
    boolean released() {
        return type == null;
    }

    /**
     * Parses a payload.
     *
     * @param payload what arrived on the channel
     * @return the notice, or null if the payload is not one of ours (ignored)
     */
    static Notice parse(final String payload) {
        if (RELEASED.equals(payload)) {
            return new Notice(Long.MIN_VALUE, null, null);
        }
        try {
            int a = payload.indexOf(' ');
            int b = payload.indexOf(' ', a + 1);
            long slice = Long.parseLong(payload.substring(0, a));
            int typeLength = Integer.parseInt(payload.substring(a + 1, b));
            String type = payload.substring(b + 1, b + 1 + typeLength);
            return new Notice(slice, type, payload.substring(b + 1 + typeLength));
        } catch (RuntimeException e) {
            return null;
        }
    }
}
