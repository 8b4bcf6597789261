package io.tickwheel.internal;

import java.util.function.Consumer;

/**
 * A wheel for tests that drive a worker by hand: it has no tick of its own to wake for, nothing
 * to purge, nothing to drain and no invariant; a test overrides what its scenario needs.
 *
 * <p>Threading: the worker's thread only.
 */
abstract class IdleWheel extends TimingWheel {

    IdleWheel(final long originNanos, final long tickNanos) {
        super(originNanos, tickNanos);
    }

    @Override
    public long purgeCancelled() {
        return 0;
    }

    @Override
    public long nanosUntilNextTick(final long nowNanos) {
        return NEVER;
    }

    @Override
    void drainBuckets(final Consumer<TimeoutNode> sink) {
        // holds nothing
    }

    @Override
    public void checkInvariants() {
        // nothing to check
    }
}
