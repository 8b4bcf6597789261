package io.tickwheel.internal;

/**
 * A monotonic nanosecond time source, so the worker and tests can run on a manual clock.
 * Readings are compared only by difference, never by sign, so any origin works (including ones
 * that wrap past {@link Long#MAX_VALUE}).
 *
 * <p>Threading: implementations must be thread-safe.
 */
@FunctionalInterface
public interface Clock {

    /** The JVM's monotonic clock. */
    Clock SYSTEM = System::nanoTime;

    /**
     * Returns the current reading, in nanoseconds from an arbitrary origin.
     *
     * @return the current time
     */
    long nanoTime();
}
