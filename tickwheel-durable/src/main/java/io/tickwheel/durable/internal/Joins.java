package io.tickwheel.durable.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Waiting for a store's future on behalf of a blocking call. */
public final class Joins {

    private Joins() {
    }

    /**
     * Waits for {@code f} and returns its value, or throws what it failed with, unwrapped: the
     * blocking calls promise {@link java.io.UncheckedIOException} (or why else the store refused),
     * not the future's {@link CompletionException}.
     *
     * @param f the future
     * @param <T> its value's type
     * @return its value
     */
    public static <T> T join(final CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
