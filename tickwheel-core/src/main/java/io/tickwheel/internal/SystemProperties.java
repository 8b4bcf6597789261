package io.tickwheel.internal;

/**
 * The system properties tickwheel reads, each read when it is needed (not cached), so a test or
 * an operator can change it before the next timer is created.
 *
 * <p>Threading: thread-safe (stateless).
 */
public final class SystemProperties {

    /** How many live timers trigger the one "share one timer per JVM" error; 0 turns it off. */
    public static final String INSTANCE_WARNING_THRESHOLD = "io.tickwheel.instanceWarningThreshold";
    /** The threshold when the property is unset or not a non-negative integer. */
    static final int DEFAULT_INSTANCE_WARNING_THRESHOLD = 64;

    private SystemProperties() {
    }

    /**
     * Returns the live-timer count above which the instance warning is logged, or 0 for never.
     *
     * @return the threshold
     */
    static int instanceWarningThreshold() {
        String value = System.getProperty(INSTANCE_WARNING_THRESHOLD);
        if (value == null) {
            return DEFAULT_INSTANCE_WARNING_THRESHOLD;
        }
        try {
            int threshold = Integer.parseInt(value.trim());
            if (threshold >= 0) {
                return threshold;
            }
        } catch (NumberFormatException e) {
            // fall through: a typo must not turn the warning off
        }
        System.getLogger(SystemProperties.class.getName()).log(System.Logger.Level.WARNING,
                "Ignoring -D" + INSTANCE_WARNING_THRESHOLD + "=" + value + " (expected: an integer >= 0); using "
                        + DEFAULT_INSTANCE_WARNING_THRESHOLD);
        return DEFAULT_INSTANCE_WARNING_THRESHOLD;
    }
}
