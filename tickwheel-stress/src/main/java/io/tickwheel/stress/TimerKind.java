package io.tickwheel.stress;

import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timer;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The two public timers, built the way the stress tests need them: the given thread factory,
 * leak detection off (every state stops its timer), a 1 ms tick and a small hashed wheel.
 *
 * <p>Threading: immutable.
 */
public enum TimerKind {
    /** {@link HashedWheelTimer} with 8 buckets of 1 ms. */
    HASHED,
    /** {@link HierarchicalWheelTimer} with its defaults (64 buckets per level, 1 ms). */
    HIERARCHICAL;

    private static final Turns TURNS = new Turns();

    /**
     * Returns the kinds in turn, one per call: for states that cover both timers.
     *
     * @return HASHED, HIERARCHICAL, HASHED, ...
     */
    public static TimerKind next() {
        return TURNS.next(2) == 0 ? HASHED : HIERARCHICAL;
    }

    /**
     * Builds a timer of this kind; its worker does not start until the first {@code newTimeout}
     * or {@link #start(Timer)}.
     *
     * @param threadFactory makes the worker thread
     * @return a new timer
     */
    public Timer create(final ThreadFactory threadFactory) {
        if (this == HASHED) {
            return HashedWheelTimer.builder().threadFactory(threadFactory).tickDuration(1, TimeUnit.MILLISECONDS)
                    .ticksPerWheel(8).leakDetection(false).build();
        }
        return HierarchicalWheelTimer.builder().threadFactory(threadFactory).leakDetection(false).build();
    }

    /**
     * Starts a timer made by {@link #create}.
     *
     * @param timer the timer
     */
    public static void start(final Timer timer) {
        if (timer instanceof HashedWheelTimer hashed) {
            hashed.start();
        } else {
            ((HierarchicalWheelTimer) timer).start();
        }
    }
}
