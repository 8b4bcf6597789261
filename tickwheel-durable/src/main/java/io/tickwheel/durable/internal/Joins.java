package io.tickwheel.durable.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/** Waiting on behalf of a blocking call: for a store's future, or for a store's thread to end at close. */
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

    /**
     * Waits up to {@code millis} for {@code t} to end, and an interrupt does not cut the wait short: a
     * close on an interrupted thread (a shutdown path) must still return with the store's threads
     * ended and the directory released, as any other close does. The interrupt is re-asserted on
     * return, never swallowed.
     *
     * @param t      the thread
     * @param millis the most to wait
     * @return whether {@code t} has ended
     */
    public static boolean await(final Thread t, final long millis) {
        boolean interrupted = Thread.interrupted();
        long left = TimeUnit.MILLISECONDS.toNanos(millis);
        long end = System.nanoTime() + left;
        try {
            while (t.isAlive() && left > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedJoin(t, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                left = end - System.nanoTime();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return !t.isAlive();
    }
}
