/**
 * tickwheel: timing-wheel timers for the JVM.
 *
 * <p>Only {@code io.tickwheel} is exported; {@code io.tickwheel.internal} is the implementation.
 *
 * <p>{@code jdk.jfr} is required statically: the timers' JFR events are sent when it is in the
 * module graph (always on the class path, and whenever a recording can run: starting one from
 * the command line adds the module), and skipped, at no cost, on a runtime image without it.
 */
module io.tickwheel {
    requires static jdk.jfr;

    exports io.tickwheel;
}
