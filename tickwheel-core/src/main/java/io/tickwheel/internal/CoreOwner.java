package io.tickwheel.internal;

import io.tickwheel.Timer;

/**
 * A {@link Timer} that hands out its engine itself, for test rigs that drive a bare
 * {@link TimerCore}; the public timers are found through {@link TimeoutNode#installCoreLookup}.
 *
 * <p>Threading: implementations return a final field.
 */
interface CoreOwner extends Timer {

    /**
     * Returns the engine behind this timer.
     *
     * @return the engine
     */
    TimerCore core();
}
