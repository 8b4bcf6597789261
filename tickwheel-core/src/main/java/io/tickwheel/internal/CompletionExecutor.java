package io.tickwheel.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Where {@code TimeoutFutures} completes a future whose delay passed, unless the caller gave an
 * executor: a small pool of daemon threads ({@code tickwheel-futures-N}) that belongs to tickwheel.
 *
 * <p>Why not {@link java.util.concurrent.ForkJoinPool#commonPool()}: the common pool is where
 * blocking work is usually sent ({@code supplyAsync(blocking)}), and when it is saturated a
 * completion queued behind that work fires arbitrarily late, which is exactly when a timeout is
 * needed. Why not the timer's worker thread: completing a future runs its dependent stages on the
 * completing thread, and user callbacks must not run on the timer's thread by surprise. This pool
 * runs nothing but completions and their dependent stages; its threads are made by
 * {@link NamedThreadFactory} (no inherited thread-locals or class loader), start on demand up to
 * {@link #THREADS} and end after {@link #KEEP_ALIVE_SECONDS} seconds idle.
 *
 * <p>Threading: thread-safe (a {@link ThreadPoolExecutor}, created once by the JVM's lazy and
 * thread-safe class initialization).
 */
public final class CompletionExecutor {

    /** Enough that a few dependents that block do not delay the other completions. */
    static final int THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    static final long KEEP_ALIVE_SECONDS = 10;

    private CompletionExecutor() {
    }

    /** Created on first use. */
    private static final class Holder {
        static final ThreadPoolExecutor POOL = create();

        private static ThreadPoolExecutor create() {
            ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), new NamedThreadFactory("tickwheel-futures-", true));
            pool.allowCoreThreadTimeOut(true);
            return pool;
        }
    }

    /**
     * Returns the shared completion executor.
     *
     * @return the executor
     */
    public static Executor shared() {
        return Holder.POOL;
    }
}
