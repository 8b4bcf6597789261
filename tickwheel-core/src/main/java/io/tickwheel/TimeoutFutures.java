package io.tickwheel;

import io.tickwheel.internal.Checks;
import io.tickwheel.internal.FuturesTimeoutTask;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link CompletableFuture#orTimeout} and {@link CompletableFuture#completeOnTimeout} on a
 * {@link Timer} of your choice. The JDK's versions (before JDK 25) keep every timeout in the JVM
 * on one hidden single-thread {@code ScheduledThreadPoolExecutor}, which cannot be configured,
 * keeps each timeout until its deadline even when the future completed long before, and runs
 * the future's dependent stages on that thread.
 *
 * <pre>{@code
 * CompletableFuture<Response> f = TimeoutFutures.orTimeout(client.send(request), 2, TimeUnit.SECONDS, timer);
 * // instead of: client.send(request).orTimeout(2, TimeUnit.SECONDS)
 * }</pre>
 *
 * <p>Like the JDK's methods, these complete the given future itself and return it. When the
 * delay passes first, the future is completed on {@link ForkJoinPool#commonPool()}, never on
 * the timer's worker thread, so dependent stages added without an executor run there (attach
 * them with {@code thenApplyAsync(fn, executor)} to choose). When the future completes any
 * other way first, its timeout is cancelled at once, so the timer retains nothing. If the timer
 * is stopped while a timeout is pending, the future fails at once with an
 * {@link IllegalStateException}, since its timeout can no longer fire.
 *
 * <p>Threading: thread-safe (stateless; see {@link Timer} and {@link CompletableFuture}).
 */
public final class TimeoutFutures {

    private TimeoutFutures() {
    }

    /**
     * Completes {@code f} exceptionally with a {@link TimeoutException} if it is not done within
     * {@code delay}. Does nothing if {@code f} is already done.
     *
     * @param <T> the result type
     * @param f the future
     * @param delay how long to wait before timing out, in {@code unit}
     * @param unit the unit of {@code delay}
     * @param timer the timer that holds the timeout
     * @return {@code f}
     * @throws NullPointerException if {@code f}, {@code unit} or {@code timer} is null
     * @throws IllegalStateException if {@code timer} has been stopped
     * @throws RejectedExecutionException if {@code timer} is at its pending limit
     */
    public static <T> CompletableFuture<T> orTimeout(final CompletableFuture<T> f, final long delay,
            final TimeUnit unit, final Timer timer) {
        Checks.notNull(f, "f");
        Checks.notNull(unit, "unit");
        Checks.notNull(timer, "timer");
        return FuturesTimeoutTask.arm(f, null, true, delay, unit, timer);
    }

    /**
     * Completes {@code f} with {@code value} if it is not done within {@code delay}. Does nothing
     * if {@code f} is already done.
     *
     * @param <T> the result type
     * @param f the future
     * @param value the value to complete with when the delay passes; may be null
     * @param delay how long to wait, in {@code unit}
     * @param unit the unit of {@code delay}
     * @param timer the timer that holds the timeout
     * @return {@code f}
     * @throws NullPointerException if {@code f}, {@code unit} or {@code timer} is null
     * @throws IllegalStateException if {@code timer} has been stopped
     * @throws RejectedExecutionException if {@code timer} is at its pending limit
     */
    public static <T> CompletableFuture<T> completeOnTimeout(final CompletableFuture<T> f, final T value,
            final long delay, final TimeUnit unit, final Timer timer) {
        Checks.notNull(f, "f");
        Checks.notNull(unit, "unit");
        Checks.notNull(timer, "timer");
        return FuturesTimeoutTask.arm(f, value, false, delay, unit, timer);
    }
}
