package io.tickwheel.internal;

import io.tickwheel.Timeout;
import java.util.Set;

/**
 * A lifecycle for a worker driven by a test: it keeps the worker running for a given number of
 * passes of its loop (or until it fails), asks no other thread to report a failed drain, and
 * has nothing waiting for the worker's end.
 *
 * <p>Threading: the worker's thread only.
 */
final class PassesControl implements WorkerControl {

    private final long passes;
    private long asked;

    /**
     * Creates the lifecycle.
     *
     * @param passes how many passes the worker runs; {@link Long#MAX_VALUE} for until it fails
     */
    PassesControl(final long passes) {
        this.passes = passes;
    }

    @Override
    public boolean isStarted() {
        return asked++ < passes;
    }

    @Override
    public boolean forceStop() {
        return false;
    }

    @Override
    public void reportFailedDrain(final Set<Timeout> drained) {
        // forceStop() returned false: the worker does not report
    }

    @Override
    public void terminated() {
        // nothing waits
    }
}
