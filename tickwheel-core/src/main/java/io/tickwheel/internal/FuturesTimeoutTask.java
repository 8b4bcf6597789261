package io.tickwheel.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/**
 * The timeout behind {@code TimeoutFutures}: one object that is the timer task (on expiry,
 * completes the future), the future's completion callback (cancels the timeout and lets go of
 * the future) and the completion job handed to the completion executor ({@link CompletionExecutor}
 * unless the caller chose one), so that the future's dependent stages never run on the timer's
 * worker thread, nor wait behind a saturated {@link java.util.concurrent.ForkJoinPool#commonPool()}.
 *
 * <p>Every future armed here completes, whatever an executor does: the timer task is a
 * {@link HandOffTask}, so a timer whose task executor refuses it runs it on its worker; and if the
 * completion executor refuses the completion job (or throws an Error), the job runs on the thread
 * that handed it over, a late completion there beating a future that never completes.
 *
 * <p>Threading: thread-safe. {@code timeout} is written once, before the future's
 * {@code whenComplete} registers this object, and read only by that callback, so the future's
 * own publication of the callback (a CAS on its stack) orders the write before the read.
 * {@code future} and {@code value} are cleared (plain writes) by that callback, so that a
 * cancelled timeout the timer has not discarded yet does not keep them; every reader copies
 * {@code future} once and tolerates either value, since both mean the future is done.
 *
 * @param <T> the future's result type
 */
public final class FuturesTimeoutTask<T> implements HandOffTask, BiConsumer<T, Throwable>, Runnable {

    /** The future to complete; null once it completed. */
    private CompletableFuture<T> future;
    /** The value to complete with (unused when {@code timesOut}); null once the future completed. */
    private T value;
    /** True: complete exceptionally with a {@link TimeoutException}; false: with {@code value}. */
    private final boolean timesOut;
    /** Where the future is completed, and so where its dependent stages run. */
    private final Executor completer;
    private Timeout timeout;

    private FuturesTimeoutTask(final CompletableFuture<T> future, final T value, final boolean timesOut,
            final Executor completer) {
        this.future = future;
        this.value = value;
        this.timesOut = timesOut;
        this.completer = completer;
    }

    /**
     * Arms a timeout for {@code future} unless it is already done; the caller has checked every
     * argument.
     *
     * @param <T> the result type
     * @param future the future to complete
     * @param value the value for {@code completeOnTimeout}; ignored when {@code timesOut}
     * @param timesOut true for {@code orTimeout}, false for {@code completeOnTimeout}
     * @param delay the delay
     * @param unit the delay's unit
     * @param timer the timer to hold the timeout
     * @param completer the executor that completes the future when the delay passes
     * @return {@code future}
     */
    @SuppressWarnings("FutureReturnValueIgnored") // whenComplete's stage only mirrors future
    public static <T> CompletableFuture<T> arm(final CompletableFuture<T> future, final T value,
            final boolean timesOut, final long delay, final TimeUnit unit, final Timer timer,
            final Executor completer) {
        if (!future.isDone()) {
            FuturesTimeoutTask<T> task = new FuturesTimeoutTask<>(future, value, timesOut, completer);
            task.timeout = timer.newTimeout(task, delay, unit);
            future.whenComplete(task); // at once, cancelling the timeout, if the future is done
        }
        return future;
    }

    /** Expired, on the timer's thread: complete elsewhere, so dependents do not run here. */
    @Override
    public void run(final Timeout expired) {
        CompletableFuture<T> target = future;
        if (target != null && !target.isDone()) {
            handOff(completer, this);
        }
    }

    /**
     * Cancelled: by {@link #accept} once the future is done (nothing to do), or by the timer's
     * stop while it is pending. The timeout can then never fire, and a future left to wait for
     * it could hang forever, so it fails now, saying why, rather than later or never.
     */
    @Override
    public void cancelled(final Timeout cancelled) {
        CompletableFuture<T> target = future;
        if (target != null && !target.isDone()) {
            handOff(completer, () -> target.completeExceptionally(
                    new IllegalStateException("the timer was stopped before the timeout fired")));
        }
    }

    /** The future completed (any way, this timeout included): drop the timeout from the wheel. */
    @Override
    public void accept(final T result, final Throwable failure) {
        timeout.cancel();
        future = null;
        value = null;
    }

    /** The completion job, on the completion executor. */
    @Override
    public void run() {
        CompletableFuture<T> target = future;
        if (target == null) {
            return; // completed meanwhile
        }
        if (timesOut) {
            target.completeExceptionally(new TimeoutException());
        } else {
            target.complete(value); // a cleared value means target is done, so this is a no-op
        }
    }

    /** Runs {@code job} on {@code executor}; in the calling thread only if the executor refuses it. */
    private static void handOff(final Executor executor, final Runnable job) {
        try {
            executor.execute(job);
        } catch (Throwable refused) {
            // Refused, or an Error (no thread could be started): a late completion here beats a
            // future that never completes.
            job.run();
        }
    }
}
