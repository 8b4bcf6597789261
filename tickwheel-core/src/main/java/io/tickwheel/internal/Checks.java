package io.tickwheel.internal;

import java.util.concurrent.ThreadFactory;

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
     * Returns a non-negative duration in nanoseconds, saturated at {@link Long#MAX_VALUE}.
     *
     * @param value the argument
     * @param name the argument's name
     * @return nanoseconds
     * @throws NullPointerException if it is null
     * @throws IllegalArgumentException naming the argument, if it is negative
     */
    public static long notNegativeNanos(final java.time.Duration value, final String name) {
        notNull(value, name);
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
        }
        return value.compareTo(java.time.Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : value.toNanos();
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

    /**
     * Asks {@code threadFactory} for the worker thread and checks what it returned: a thread, and
     * one not started yet. A started one's {@code start()} would throw at the first newTimeout and
     * stop the timer, and what it runs may be the worker itself, which must never run twice at once.
     *
     * @param threadFactory the user's factory
     * @param worker what the thread must run
     * @return the new, unstarted thread
     * @throws IllegalStateException naming {@code threadFactory} if it returned null or a started thread
     */
    public static Thread newUnstartedThread(final ThreadFactory threadFactory, final Runnable worker) {
        Thread thread = threadFactory.newThread(worker);
        if (thread == null) {
            throw new IllegalStateException("threadFactory.newThread() returned null");
        }
        if (thread.getState() != Thread.State.NEW) {
            throw new IllegalStateException("threadFactory.newThread() returned a thread that was already started ("
                    + thread.getName() + "); a ThreadFactory must return a new, unstarted thread");
        }
        return thread;
    }
}
