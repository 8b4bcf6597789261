package io.tickwheel.bench.timers;

import java.util.function.Supplier;

/**
 * One timer configuration the simulator can run: its id (used on the command line and in every
 * output), a label, its tick and how to make it.
 *
 * <p>Threading: immutable.
 *
 * @param id the name used on the command line and in the output, e.g. {@code netty41-1ms}
 * @param label a human description
 * @param tickNanos the tick, or 0 when the timer has none (a heap-based timer)
 * @param factory makes a fresh, unstarted timer
 */
public record TimerSpec(String id, String label, long tickNanos, Supplier<BenchTimer> factory) {

    /**
     * Makes a fresh timer.
     *
     * @return a new timer of this configuration
     */
    public BenchTimer create() {
        return factory.get();
    }

    /**
     * Tells whether this is the floor or the empty JVM rather than a real timer.
     *
     * @return true for the floor and the empty JVM
     */
    public boolean isBaseline() {
        return TimerCatalog.FLOOR.equals(id) || TimerCatalog.IDLE_JVM.equals(id);
    }
}
