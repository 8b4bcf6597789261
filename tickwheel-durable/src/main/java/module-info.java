/**
 * tickwheel-durable: timeouts that survive a restart.
 *
 * <p>{@code io.tickwheel.durable} is the API and the store SPI ({@link io.tickwheel.durable.TimerStore});
 * {@code io.tickwheel.durable.internal} is the implementation.
 */
module io.tickwheel.durable {
    requires transitive io.tickwheel;

    exports io.tickwheel.durable;
}
