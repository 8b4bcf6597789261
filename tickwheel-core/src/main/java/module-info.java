/**
 * tickwheel: timing-wheel timers for the JVM.
 *
 * <p>Only {@code io.tickwheel} is exported; {@code io.tickwheel.internal} is the implementation.
 */
module io.tickwheel {
    exports io.tickwheel;
}
