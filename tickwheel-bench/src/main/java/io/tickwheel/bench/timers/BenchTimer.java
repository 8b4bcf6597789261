package io.tickwheel.bench.timers;

/**
 * A timer under test, adapted to the one shape every workload drives.
 *
 * <p>Adapters stay thin: each call goes straight to the timer's own API, so what a workload
 * measures is the timer, plus one interface call that every timer pays alike. A task is turned
 * into the timer's own task type once by {@link #prepare(Runnable)} and the result is passed to
 * {@link #schedule(Object, long)} as often as needed, so a workload that shares one task instance
 * allocates nothing per call beyond what the timer itself allocates.
 *
 * <p>Every thread the timer owns has {@link #THREAD_MARKER} in its name, which is how the
 * simulator finds them to read their CPU time.
 *
 * <p>Threading: thread-safe (the timers under test are; the adapters add no state of their own).
 */
public interface BenchTimer {

    /** The text every adapter puts in the names of the threads its timer owns. */
    String THREAD_MARKER = "bench-timer";

    /**
     * Converts a task into this timer's own task type.
     *
     * @param task what to run when a timeout made from the result expires
     * @return the object to pass to {@link #schedule(Object, long)}; may be {@code task} itself
     */
    Object prepare(Runnable task);

    /**
     * Schedules a prepared task to run once, no earlier than {@code delayNanos} from now.
     *
     * @param prepared a result of {@link #prepare(Runnable)} on this timer
     * @param delayNanos the delay in nanoseconds (zero or more)
     * @return the handle to pass to {@link #cancel(Object)}
     */
    Object schedule(Object prepared, long delayNanos);

    /**
     * Cancels a scheduled timeout.
     *
     * @param handle a result of {@link #schedule(Object, long)} on this timer
     * @return whether this call cancelled it (as far as the timer can tell)
     */
    boolean cancel(Object handle);

    /**
     * Returns how many timeouts are pending.
     *
     * @return the timer's own count, or -1 when it cannot tell
     */
    long pending();

    /** Stops the timer and waits for its threads to finish their current work. */
    void stop();

    /**
     * Names the library and version under test.
     *
     * @return for example {@code "netty-common 4.1.140.Final"}
     */
    String version();

    /**
     * Tells whether this timer ever runs its tasks; the floor only accepts them.
     *
     * @return true for every real timer
     */
    default boolean fires() {
        return true;
    }

    /**
     * Converts a delay to whole milliseconds for timers that only take milliseconds, rounding
     * up so that the conversion itself never makes a timeout early.
     *
     * @param delayNanos a delay in nanoseconds
     * @return the delay in milliseconds, at least zero
     */
    static long ceilMillis(final long delayNanos) {
        if (delayNanos <= 0) {
            return 0;
        }
        return (delayNanos + 999_999L) / 1_000_000L;
    }
}
