package io.tickwheel.durable.internal;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Argument checks of the durable API. Every message names the argument, so a caller can tell which of
 * several was wrong.
 *
 * <p>Threading: immutable (static methods only).
 */
public final class DurableArgs {

    /** The longest type, in chars. */
    public static final int MAX_TYPE_CHARS = 128;
    /** The longest key, in bytes of UTF-8. */
    public static final int MAX_KEY_BYTES = 512;

    private DurableArgs() {
    }

    /**
     * Checks a handler type.
     *
     * @param type the type
     * @return the type
     * @throws NullPointerException     if null
     * @throws IllegalArgumentException if empty, longer than {@value #MAX_TYPE_CHARS} chars, or not
     *     well-formed UTF-16 (see {@link #key})
     */
    public static String type(final String type) {
        if (type == null) {
            throw new NullPointerException("type");
        }
        if (type.isEmpty()) {
            throw new IllegalArgumentException("type: empty (expected: 1 to " + MAX_TYPE_CHARS + " chars)");
        }
        if (type.length() > MAX_TYPE_CHARS) {
            throw new IllegalArgumentException("type: " + type.length() + " chars (expected: at most "
                    + MAX_TYPE_CHARS + ")");
        }
        wellFormed("type", type);
        return type;
    }

    /**
     * Checks a key.
     *
     * @param key the key
     * @return the key
     * @throws NullPointerException     if null
     * @throws IllegalArgumentException if empty, longer than {@value #MAX_KEY_BYTES} bytes of UTF-8, or
     *     not well-formed UTF-16: a surrogate without its pair has no UTF-8 form, and the encoder's
     *     replacement ({@code '?'}) would make two different keys one, so the second schedule would
     *     silently replace the first and a cancel of one would cancel the other
     */
    public static String key(final String key) {
        if (key == null) {
            throw new NullPointerException("key");
        }
        if (key.isEmpty()) {
            throw new IllegalArgumentException("key: empty (expected: 1 to " + MAX_KEY_BYTES + " bytes of UTF-8)");
        }
        if (key.length() > MAX_KEY_BYTES / 3) {
            int bytes = key.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_KEY_BYTES) {
                throw new IllegalArgumentException("key: " + bytes + " bytes of UTF-8 (expected: at most "
                        + MAX_KEY_BYTES + ")");
            }
        }
        wellFormed("key", key);
        return key;
    }

    /** Refuses a string with a surrogate that is not part of a high-low pair. */
    private static void wellFormed(final String name, final String value) {
        int i = 0;
        while (i < value.length()) {
            int codePoint = value.codePointAt(i); // a pair's code point, or a lone surrogate itself
            if (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
                throw new IllegalArgumentException(name + ": unpaired surrogate U+"
                        + Integer.toHexString(codePoint).toUpperCase(Locale.ROOT) + " at index " + i
                        + " (expected: well-formed UTF-16; it is stored as UTF-8)");
            }
            i += Character.charCount(codePoint);
        }
    }

    /**
     * Checks a payload.
     *
     * @param payload the payload
     * @param max     the store's limit
     * @return the payload
     * @throws NullPointerException     if null
     * @throws IllegalArgumentException if longer than {@code max}
     */
    public static byte[] payload(final byte[] payload, final int max) {
        if (payload == null) {
            throw new NullPointerException("payload");
        }
        if (payload.length > max) {
            throw new IllegalArgumentException("payload: " + payload.length + " bytes (expected: at most " + max
                    + ", the store's maxPayloadBytes)");
        }
        return payload;
    }

    /**
     * Checks that a value is not null.
     *
     * @param <T>   its type
     * @param value the value
     * @param name  the argument's name
     * @return the value
     * @throws NullPointerException naming the argument
     */
    public static <T> T notNull(final T value, final String name) {
        if (value == null) {
            throw new NullPointerException(name);
        }
        return value;
    }
}
