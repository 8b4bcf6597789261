package io.tickwheel;

import io.tickwheel.internal.Clock;
import io.tickwheel.internal.NamedThreadFactory;

/**
 * Entry points to tickwheel's timers.
 *
 * <p>Threading: thread-safe.
 */
public final class Timers {

    private Timers() {
    }

    /** Created on first use by the JVM's class initialization, which is lazy and thread-safe. */
    private static final class SharedHolder {
        static final HierarchicalWheelTimer SHARED = HierarchicalWheelTimer.builder()
                .threadFactory(new NamedThreadFactory("tickwheel-shared-", true))
                .build(Clock.SYSTEM, false);
    }

    /**
     * Returns the JVM-wide timer: a {@link HierarchicalWheelTimer} at 1 ms resolution with a daemon
     * worker thread, created on first use. Its tasks share one thread, so keep them short (or hand
     * real work to an executor). It cannot be stopped: {@code stop()} and {@code close()} throw
     * {@link UnsupportedOperationException}, so no library can stop it under another.
     *
     * @return the shared timer
     */
    public static Timer shared() {
        return SharedHolder.SHARED;
    }
}
