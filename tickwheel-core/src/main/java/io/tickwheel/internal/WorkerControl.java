package io.tickwheel.internal;

import io.tickwheel.Timeout;
import java.util.Set;

/**
 * What the {@link Worker} asks of the lifecycle that owns it ({@link Lifecycle}): whether to keep
 * running, how to stop after a failure, and how to say it is done. The worker sees nothing else
 * of the engine.
 *
 * <p>Threading: implementations are thread-safe; the worker calls them from its own thread.
 */
interface WorkerControl {

    /** Whether the timer is still started (no stop() and no failure yet). */
    boolean isStarted();

    /**
     * The worker failed: refuse new timeouts.
     *
     * @return true if no stop() won first, so the worker reports its drain itself
     */
    boolean forceStop();

    /** Reports a failed worker's drain, before {@link #terminated()}; see {@code Lifecycle}. */
    void reportFailedDrain(Set<Timeout> drained);

    /** The worker's final drain is done (or it can never run): publishes the drain. */
    void terminated();
}
