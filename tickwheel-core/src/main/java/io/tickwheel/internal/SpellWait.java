package io.tickwheel.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waiting in spells: the waiter looks again at what it waits for every {@link #NANOS}, however
 * long it waits, so that a wake-up lost to an Error in the thread that should have sent it (a
 * deep caller's stack overflow inside the very call that wakes waiters) costs at most one
 * spell, never a waiter blocked for good. A spell is a timed park: ten wake-ups a second for a
 * thread that is waiting anyway.
 *
 * <p>Threading: stateless.
 */
final class SpellWait {

    /** The longest one spell lasts. */
    static final long NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private SpellWait() {
    }

    /**
     * A wait of at most {@code nanos} that returns the result, or throws
     * {@link TimeoutException} if it is not there yet.
     *
     * @param <V> the result type
     */
    interface TimedGet<V> {
        V get(long nanos) throws InterruptedException, ExecutionException, TimeoutException;
    }

    /**
     * Waits, in spells, for as long as it takes.
     *
     * @param <V> the result type
     * @param get one spell's wait
     * @return the result
     * @throws InterruptedException if interrupted while waiting
     * @throws ExecutionException as {@code get} throws it
     */
    static <V> V untimed(final TimedGet<V> get) throws InterruptedException, ExecutionException {
        while (true) {
            try {
                return get.get(NANOS);
            } catch (TimeoutException spellOver) {
                // not there yet: another spell
            }
        }
    }

    /**
     * Waits, in spells, up to {@code nanos} in all.
     *
     * @param <V> the result type
     * @param get one spell's wait
     * @param nanos the whole wait; zero or less looks once
     * @return the result
     * @throws InterruptedException if interrupted while waiting
     * @throws ExecutionException as {@code get} throws it
     * @throws TimeoutException if it is not there after {@code nanos}
     */
    static <V> V timed(final TimedGet<V> get, final long nanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (nanos <= NANOS) {
            return get.get(nanos);
        }
        long start = System.nanoTime();
        while (true) {
            long left = nanos - (System.nanoTime() - start); // nanos > 0: cannot wrap
            try {
                return get.get(Math.min(left, NANOS));
            } catch (TimeoutException spellOver) {
                if (left <= NANOS) {
                    throw spellOver;
                }
            }
        }
    }
}
