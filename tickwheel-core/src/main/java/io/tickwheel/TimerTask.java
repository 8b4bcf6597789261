package io.tickwheel;

/**
 * A task to run once when its {@link Timeout} expires.
 *
 * <p>Exactly one of {@link #run(Timeout)} and {@link #cancelled(Timeout)} is called for each
 * timeout, and at most once: {@code run} when it expires, {@code cancelled} when it is cancelled
 * by {@link Timeout#cancel()} or by {@link Timer#stop()}.
 *
 * <p>Threading: called on the timer's worker thread (or its task executor, if one was given);
 * {@code cancelled} is called on the thread that cancelled the timeout.
 */
@FunctionalInterface
public interface TimerTask {

    /**
     * Runs the task after the delay given to {@link Timer#newTimeout(TimerTask, long, java.util.concurrent.TimeUnit)}.
     * An exception thrown here is logged and does not affect the timer or other timeouts.
     *
     * @param timeout the timeout this task was scheduled with
     * @throws Exception anything; it is logged at WARNING
     */
    void run(Timeout timeout) throws Exception;

    /**
     * Called once when the timeout is cancelled, by {@link Timeout#cancel()} (on the cancelling
     * thread) or by {@link Timer#stop()} (on the stopping thread); never together with
     * {@link #run(Timeout)}. The default does nothing. An exception thrown here is logged.
     *
     * @param timeout the timeout that was cancelled
     */
    default void cancelled(Timeout timeout) {
        // nothing by default: most tasks only care about running
    }
}
