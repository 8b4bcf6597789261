/**
 * tickwheel's public API: timing-wheel timers with Netty's {@code Timer} API.
 *
 * <h2>Which timer</h2>
 * <ul>
 *   <li>{@link io.tickwheel.HierarchicalWheelTimer}: the recommended timer. 1 ms resolution,
 *       unbounded range, no CPU while idle or while holding far-future timeouts.</li>
 *   <li>{@link io.tickwheel.HashedWheelTimer}: Netty's {@code HashedWheelTimer}, same constructors
 *       and behaviour, so Netty, Dubbo and Redisson style code moves over by changing imports.</li>
 *   <li>{@link io.tickwheel.Timers#shared()}: one JVM-wide timer for libraries that should not own
 *       a thread.</li>
 *   <li>{@link io.tickwheel.WheelScheduledExecutorService} and {@link io.tickwheel.TimeoutFutures}:
 *       the wheel behind {@code ScheduledExecutorService} and {@code CompletableFuture} timeouts.</li>
 * </ul>
 *
 * <h2>Guarantees every timer keeps</h2>
 * A timeout never fires before its deadline and fires on the first tick at or after it. Each
 * timeout ends exactly once: expired (its task handed to run once), cancelled (its task never
 * runs, {@link io.tickwheel.TimerTask#cancelled} called once), or returned by
 * {@link io.tickwheel.Timer#stop()} (cancelled the same way). A task that throws is logged and
 * harms nothing else.
 */
package io.tickwheel;
