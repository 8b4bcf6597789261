/**
 * tickwheel: timing-wheel timers for the JVM.
 *
 * <p>Only {@code io.tickwheel} is exported; {@code io.tickwheel.internal} is the implementation,
 * opened to tickwheel-durable alone so that its statistics reuse the core's log-bucket histogram
 * ({@code LogHistogram}, {@code HistogramData}) instead of a copy.
 *
 * <p>{@code jdk.jfr} is required statically: the timers' JFR events are sent when it is in the
 * module graph (always on the class path, and whenever a recording can run: starting one from
 * the command line adds the module), and skipped, at no cost, on a runtime image without it.
 */
// tickwheel-durable is built after the core, so javac cannot see it here: "module not found" is expected.
@SuppressWarnings("module")
module io.tickwheel {
    requires static jdk.jfr;

    exports io.tickwheel;
    exports io.tickwheel.internal to io.tickwheel.durable;
}
