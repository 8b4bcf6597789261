package io.tickwheel.bench.timers.netty;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import io.netty.util.Version;
import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerThreads;
import java.util.concurrent.TimeUnit;

/**
 * Adapts Netty's {@link HashedWheelTimer} with Netty's defaults apart from the tick and wheel
 * length (leak detection on, no pending limit, tasks run on the worker thread).
 *
 * <p>The class is compiled against netty-common 4.1 and used as is for Netty 4.1. For Netty
 * 4.2 the same bytes are defined a second time by {@link io.tickwheel.bench.timers.NettyTimers}
 * in a class loader that sees netty-common 4.2 instead, so this one adapter drives both
 * versions (their timer API is the same). Keep every Netty reference inside this package.
 *
 * <p>Threading: thread-safe (via the Netty timer).
 */
public final class NettyHashedTimer implements BenchTimer {

    private final HashedWheelTimer timer;

    /**
     * Makes the timer.
     *
     * @param name a short name for the worker thread
     * @param tickMillis the tick in milliseconds
     * @param ticksPerWheel the wheel length
     */
    public NettyHashedTimer(final String name, final long tickMillis, final int ticksPerWheel) {
        timer = new HashedWheelTimer(TimerThreads.named(name), tickMillis, TimeUnit.MILLISECONDS,
                ticksPerWheel);
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

    @Override
    public void stop() {
        timer.stop();
    }

    @Override
    public String version() {
        Package p = HashedWheelTimer.class.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        if (v == null) { // a shaded jar drops Netty's manifest but keeps its version file
            Version common = Version.identify(HashedWheelTimer.class.getClassLoader())
                    .get("netty-common");
            v = common == null ? "(unknown)" : common.artifactVersion();
        }
        return "netty-common " + v;
    }
}
