package io.tickwheel.internal;

/**
 * Argument checks for the public API boundary. Every message names the argument, as Netty's do,
 * so a caller can tell which of several arguments was wrong.
 *
 * <p>Threading: immutable (static methods only).
 */
public final class Checks {

    private Checks() {
    }

    /**
     * Returns {@code value}, or throws if it is null.
     *
     * @param <T> the value's type
     * @param value the argument
     * @param name the argument's name
     * @return {@code value}
     * @throws NullPointerException naming the argument
     */
    public static <T> T notNull(final T value, final String name) {
        if (value == null) {
            throw new NullPointerException(name);
        }
        return value;
    }

    /**
     * Returns {@code value}, or throws if it is not positive.
     *
     * @param value the argument
     * @param name the argument's name
     * @return {@code value}
     * @throws IllegalArgumentException naming the argument and its value
     */
    public static long positive(final long value, final String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
        return value;
    }

    /**
     * Returns {@code value}, or throws if it is outside {@code [min, max]}.
     *
     * @param value the argument
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @param name the argument's name
     * @return {@code value}
     * @throws IllegalArgumentException naming the argument, its value and the range
     */
    public static int inRange(final int value, final int min, final int max, final String name) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    name + ": " + value + " (expected: " + min + " <= " + name + " <= " + max + ")");
        }
        return value;
    }
}
