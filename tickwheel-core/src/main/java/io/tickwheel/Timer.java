package io.tickwheel;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Schedules {@link TimerTask}s to run once after a delay.
 *
 * <p>A timeout never fires before its delay has passed; how late it may fire depends on the
 * timer's tick duration. Close a timer with {@link #stop()} (or {@link #close()}) when done.
 *
 * <p>Threading: thread-safe; every method may be called from any thread.
 */
public interface Timer extends AutoCloseable {

    /**
     * Schedules {@code task} to run once after {@code delay}. A zero or negative delay runs it on
     * the next tick; a delay too large to represent is treated as "practically never".
     *
     * @param task the task to run
     * @param delay the delay, in {@code unit}
     * @param unit the unit of {@code delay}
     * @return the handle that can cancel it
     * @throws NullPointerException if {@code task} or {@code unit} is null
     * @throws IllegalStateException if this timer was stopped
     * @throws java.util.concurrent.RejectedExecutionException if the pending limit is reached
     */
    Timeout newTimeout(TimerTask task, long delay, TimeUnit unit);

    /**
     * Schedules {@code task} to run once after {@code delay}; same semantics as
     * {@link #newTimeout(TimerTask, long, TimeUnit)}.
     *
     * @param task the task to run
     * @param delay the delay
     * @return the handle that can cancel it
     * @throws NullPointerException if {@code task} or {@code delay} is null
     */
    default Timeout newTimeout(final TimerTask task, final Duration delay) {
        Objects.requireNonNull(delay, "delay");
        long nanos;
        try {
            nanos = delay.toNanos();
        } catch (ArithmeticException tooLarge) {
            nanos = delay.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return newTimeout(task, nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Stops the timer's worker and cancels every timeout that is still pending. Each returned
     * timeout has had its {@link TimerTask#cancelled(Timeout)} called. A second call returns an
     * empty set. After this returns, {@link #pendingTimeouts()} is zero and
     * {@link #newTimeout(TimerTask, long, TimeUnit)} throws {@link IllegalStateException}. As
     * Netty's, it returns once the worker thread has ended (a task blocked on it is interrupted).
     *
     * <p>If the worker failed (an error escaped its loop; it is logged at ERROR), the timer has
     * refused new timeouts since, has already cancelled and told the timeouts it held, and the
     * first {@code stop()} returns them.
     *
     * @return the timeouts that were pending, now cancelled
     * @throws IllegalStateException if called from a task running on the timer's worker thread
     */
    Set<Timeout> stop();

    /**
     * Returns the number of timeouts scheduled and not yet expired or cancelled.
     *
     * @return the pending count
     */
    long pendingTimeouts();

    /** Same as {@link #stop()}, ignoring its result. */
    @Override
    default void close() {
        stop();
    }
}
