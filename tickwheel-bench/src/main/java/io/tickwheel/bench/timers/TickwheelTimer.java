package io.tickwheel.bench.timers;

import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerStats;
import io.tickwheel.TimerTask;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Adapts either of tickwheel's timers; both implement {@link Timer}, so one adapter serves both.
 *
 * <p>Threading: thread-safe (via the tickwheel timer).
 */
public final class TickwheelTimer implements BenchTimer {

    private final Timer timer;

    private TickwheelTimer(final Timer timer) {
        this.timer = timer;
    }

    /**
     * Makes a {@link HierarchicalWheelTimer} with the given finest tick.
     *
     * @param tick the finest resolution
     * @return the adapter
     */
    public static TickwheelTimer hierarchical(final Duration tick) {
        return new TickwheelTimer(HierarchicalWheelTimer.builder()
                .threadFactory(TimerThreads.named("tickwheel-hier"))
                .tickDuration(tick)
                .build());
    }

    /**
     * Makes a {@link HashedWheelTimer} with Netty's other defaults (leak detection on).
     *
     * @param tickMillis the tick in milliseconds
     * @param ticksPerWheel the wheel length
     * @return the adapter
     */
    public static TickwheelTimer hashed(final long tickMillis, final int ticksPerWheel) {
        return new TickwheelTimer(new HashedWheelTimer(TimerThreads.named("tickwheel-hashed"),
                tickMillis, TimeUnit.MILLISECONDS, ticksPerWheel));
    }

    @Override
    public Object prepare(final Runnable task) {
        return (TimerTask) timeout -> task.run();
    }

    @Override
    public Object schedule(final Object prepared, final long delayNanos) {
        return timer.newTimeout((TimerTask) prepared, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean cancel(final Object handle) {
        return ((Timeout) handle).cancel();
    }

    @Override
    public long pending() {
        return timer.pendingTimeouts();
    }

    /**
     * Returns the timer's own statistics.
     *
     * @return the snapshot
     */
    public TimerStats stats() {
        return timer instanceof HierarchicalWheelTimer hierarchical ? hierarchical.stats()
                : ((HashedWheelTimer) timer).stats();
    }

    @Override
    public void stop() {
        timer.stop();
    }

    @Override
    public String version() {
        Properties p = new Properties();
        try (InputStream in = Timer.class.getResourceAsStream(
                "/META-INF/maven/io.tickwheel/tickwheel-core/pom.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "tickwheel-core (this build)";
        }
        return "tickwheel-core " + p.getProperty("version", "(this build)");
    }
}
