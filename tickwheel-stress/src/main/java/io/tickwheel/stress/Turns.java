package io.tickwheel.stress;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands out configurations in turn, so that one jcstress test covers both timers (and, where it
 * matters, started and unstarted ones): each new state takes the next configuration. jcstress
 * builds states by the thousand per iteration, so every configuration gets an equal share of the
 * samples, in every JVM configuration the run forks, and a test declares its actors once
 * instead of once per timer.
 *
 * <p>Threading: thread-safe (via an atomic counter).
 */
public final class Turns {

    private final AtomicInteger next = new AtomicInteger();

    /**
     * Returns the next turn.
     *
     * @param count how many configurations there are
     * @return 0 to {@code count - 1}, in rotation
     */
    public int next(final int count) {
        return Math.floorMod(next.getAndIncrement(), count);
    }
}
