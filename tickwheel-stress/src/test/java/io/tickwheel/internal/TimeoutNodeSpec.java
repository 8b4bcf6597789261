package io.tickwheel.internal;

/**
 * The sequential behaviour of a timeout's state machine, for {@link TimeoutNodeLincheckTest}:
 * the first of cancel / expire / quiet cancel wins and returns true; every later one returns
 * false; the state reads report the winner. Method names and signatures match the test's
 * operations, which is how lincheck pairs them.
 *
 * <p>Threading: not thread-safe; lincheck runs it on one thread.
 */
public final class TimeoutNodeSpec {

    private boolean expired;
    private boolean cancelled;

    private boolean pending() {
        return !expired && !cancelled;
    }

    /**
     * Cancels if pending.
     *
     * @return whether this call cancelled
     */
    public boolean cancel() {
        if (!pending()) {
            return false;
        }
        cancelled = true;
        return true;
    }

    /**
     * Expires if pending.
     *
     * @return whether this call expired
     */
    public boolean expire() {
        if (!pending()) {
            return false;
        }
        expired = true;
        return true;
    }

    /**
     * Cancels if pending.
     *
     * @return whether this call cancelled
     */
    public boolean cancelQuietly() {
        return cancel();
    }

    /**
     * Reads the state.
     *
     * @return whether cancelled
     */
    public boolean isCancelled() {
        return cancelled;
    }

    /**
     * Reads the state.
     *
     * @return whether expired
     */
    public boolean isExpired() {
        return expired;
    }
}
