package io.tickwheel.internal;

/**
 * Lets the public-API tests in {@code io.tickwheel} reach {@link LeakGuard}'s package-private test
 * hooks: the live-timer count and the one-time "too many timers" warning.
 *
 * <p>Threading: thread-safe (delegates to atomics).
 */
public final class LeakGuardAccess {

    /** The instance count above which the warning is logged. */
    public static final int INSTANCE_LIMIT = LeakGuard.INSTANCE_LIMIT;

    private LeakGuardAccess() {
    }

    /** Makes the next timer created above the limit log the warning again. */
    public static void resetWarning() {
        LeakGuard.resetWarning();
    }

    /**
     * Returns how many timers are alive (created, neither stopped nor collected).
     *
     * @return the count
     */
    public static int live() {
        return LeakGuard.live();
    }
}
