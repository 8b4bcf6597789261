package io.tickwheel;

import io.tickwheel.internal.Checks;
import io.tickwheel.internal.CompletionExecutor;
import io.tickwheel.internal.FuturesTimeoutTask;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
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
 * future completes any other way first, its timeout is cancelled at once, so the timer retains
 * nothing. If the timer is stopped while a timeout is pending, the future fails at once with an
 * {@link IllegalStateException}, since its timeout can no longer fire.
 *
 * <h2>Where the future is completed, and where dependent stages run</h2>
 * When the delay passes first, the timer's worker thread hands the completion to an executor,
 * and the future is completed there; dependent stages added without an executor
 * ({@code thenApply}, {@code whenComplete}, ...) run on that same thread, as stages always run on
 * the thread that completes their source (or on a thread blocked in its {@code get()} or
 * {@code join()}, which the JDK lets help). Never on the timer's worker thread:
 * <ul>
 *   <li>the methods without an executor use tickwheel's own small pool of daemon threads
 *       ({@code tickwheel-futures-N}), not {@link ForkJoinPool#commonPool()}: blocking work is
 *       usually sent to the common pool, and a completion queued behind it would fire
 *       arbitrarily late, exactly when the timeout matters. A stage that blocks holds one of those
 *       threads; give such stages an executor ({@code thenApplyAsync(fn, executor)}) or use the
 *       overloads below;
 *   <li>the overloads that take an {@code executor} complete the future there, so dependent stages
 *       run on threads you choose.
 * </ul>
 * Either way the future completes within the timer's lateness: if the executor refuses the
 * completion (or throws), the future is completed on the thread that handed it over (the timer's
 * worker, or its task executor) rather than never; and if the timer's own task executor refuses
 * the timeout's task, the timer runs it on its worker, as it only hands the completion on.
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
        return FuturesTimeoutTask.arm(f, null, true, delay, unit, timer, CompletionExecutor.shared());
    }

    /**
     * As {@link #orTimeout(CompletableFuture, long, TimeUnit, Timer)}, but when the delay passes the
     * future is completed on {@code executor}, so its dependent stages run there (see the class
     * description).
     *
     * @param <T> the result type
     * @param f the future
     * @param delay how long to wait before timing out, in {@code unit}
     * @param unit the unit of {@code delay}
     * @param timer the timer that holds the timeout
     * @param executor where the future is completed when the delay passes
     * @return {@code f}
     * @throws NullPointerException if {@code f}, {@code unit}, {@code timer} or {@code executor} is null
     * @throws IllegalStateException if {@code timer} has been stopped
     * @throws RejectedExecutionException if {@code timer} is at its pending limit
     */
    public static <T> CompletableFuture<T> orTimeout(final CompletableFuture<T> f, final long delay,
            final TimeUnit unit, final Timer timer, final Executor executor) {
        Checks.notNull(f, "f");
        Checks.notNull(unit, "unit");
        Checks.notNull(timer, "timer");
        Checks.notNull(executor, "executor");
        return FuturesTimeoutTask.arm(f, null, true, delay, unit, timer, executor);
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
        return FuturesTimeoutTask.arm(f, value, false, delay, unit, timer, CompletionExecutor.shared());
    }

    /**
     * As {@link #completeOnTimeout(CompletableFuture, Object, long, TimeUnit, Timer)}, but when the
     * delay passes the future is completed on {@code executor}, so its dependent stages run there
     * (see the class description).
     *
     * @param <T> the result type
     * @param f the future
     * @param value the value to complete with when the delay passes; may be null
     * @param delay how long to wait, in {@code unit}
     * @param unit the unit of {@code delay}
     * @param timer the timer that holds the timeout
     * @param executor where the future is completed when the delay passes
     * @return {@code f}
     * @throws NullPointerException if {@code f}, {@code unit}, {@code timer} or {@code executor} is null
     * @throws IllegalStateException if {@code timer} has been stopped
     * @throws RejectedExecutionException if {@code timer} is at its pending limit
     */
    public static <T> CompletableFuture<T> completeOnTimeout(final CompletableFuture<T> f, final T value,
            final long delay, final TimeUnit unit, final Timer timer, final Executor executor) {
        Checks.notNull(f, "f");
        Checks.notNull(unit, "unit");
        Checks.notNull(timer, "timer");
        Checks.notNull(executor, "executor");
        return FuturesTimeoutTask.arm(f, value, false, delay, unit, timer, executor);
    }
}
