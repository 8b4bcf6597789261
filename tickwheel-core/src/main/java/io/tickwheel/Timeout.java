package io.tickwheel;

/**
 * A handle to a task scheduled on a {@link Timer}.
 *
 * <p>A timeout is pending until it either expires (its task is handed to run) or is cancelled;
 * exactly one of the two happens, once.
 *
 * <p>Threading: thread-safe; every method may be called from any thread.
 */
public interface Timeout {

    /**
     * Returns the timer that created this timeout.
     *
     * @return the timer
     */
    Timer timer();

    /**
     * Returns the task this timeout runs. Once {@link #cancel()} has cancelled this timeout and
     * delivered {@link TimerTask#cancelled(Timeout)}, the timer lets go of the task, so that a
     * cancelled timeout retains nothing of what the task holds (a request's context, say), and
     * this returns null; inside {@code cancelled()} it still returns the task. Timeouts returned
     * by {@link Timer#stop()} keep their tasks, for callers that reschedule them.
     *
     * @return the task, or null after a completed {@link #cancel()}
     */
    TimerTask task();

    /**
     * Returns whether the task was handed to run (whether or not it finished or succeeded).
     *
     * @return {@code true} once expired
     */
    boolean isExpired();

    /**
     * Returns whether this timeout was cancelled, by {@link #cancel()} or by {@link Timer#stop()}.
     *
     * @return {@code true} once cancelled
     */
    boolean isCancelled();

    /**
     * Cancels this timeout, so that its task never runs. Constant time for the caller.
     *
     * @return {@code true} only for the one call that moved it from pending to cancelled;
     *     {@code false} if it had already expired or been cancelled
     */
    boolean cancel();
}
