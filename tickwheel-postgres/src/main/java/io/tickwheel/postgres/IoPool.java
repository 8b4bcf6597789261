package io.tickwheel.postgres;

import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the store's statements that answer with a future ({@code schedule}, {@code cancel},
 * {@code retry}, {@code fail}) on four daemon threads, and turns each {@link SQLException} into the
 * contract's {@link java.io.UncheckedIOException} naming the table and cause.
 *
 * <p>Threading: thread-safe (a {@link ThreadPoolExecutor}); a future is completed by the pool
 * thread that ran its statement, or by {@link #close} if the statement never started.
 */
final class IoPool {

    /** One statement (or a few) against the database. */
    interface SqlCall<T> {
        T call() throws SQLException;
    }

    private final TableNames names;
    private final ThreadPoolExecutor pool;

    IoPool(final TableNames names, final String nodeId) {
        this.names = names;
        this.pool = new ThreadPoolExecutor(4, 4, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                daemon("tickwheel-postgres-io-" + nodeId));
    }

    /** Runs {@code body} on the caller's thread. */
    <T> T call(final String operation, final SqlCall<T> body) {
        try {
            return body.call();
        } catch (SQLException e) {
            throw Failures.wrap(names, operation, e);
        }
    }

    /** Runs {@code body} on a pool thread. */
    <T> CompletableFuture<T> run(final String operation, final SqlCall<T> body) {
        CompletableFuture<T> f = new CompletableFuture<>();
        try {
            pool.execute(new Task<>(f, () -> {
                try {
                    f.complete(body.call());
                } catch (SQLException e) {
                    f.completeExceptionally(Failures.wrap(names, operation, e));
                } catch (RuntimeException | Error e) {
                    f.completeExceptionally(e);
                }
            }));
        } catch (RejectedExecutionException e) {
            f.completeExceptionally(new IllegalStateException("PostgresStore(" + names + ") is closed", e));
        }
        return f;
    }

    /** Lets queued statements finish (bounded), then fails the futures of those that never started. */
    void close(final long waitMillis) {
        pool.shutdown();
        try {
            if (pool.awaitTermination(waitMillis, TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Runnable r : pool.shutdownNow()) {
            if (r instanceof Task<?> t) {
                t.future.completeExceptionally(new IllegalStateException("PostgresStore(" + names
                        + ") closed before this statement ran"));
            }
        }
    }

    static ThreadFactory daemon(final String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** A queued statement that remembers its future, so close can fail it. */
    private static final class Task<T> implements Runnable {
        final CompletableFuture<T> future;
        private final Runnable body;

        Task(final CompletableFuture<T> future, final Runnable body) {
            this.future = future;
            this.body = body;
        }

        @Override
        public void run() {
            body.run();
        }
    }
}
