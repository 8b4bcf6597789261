package io.tickwheel.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerTask;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A timer that never fires: it hands out timeouts that only record a cancel, so the executor
 * tests race the executor's own registry and lifecycle, with no timer thread in the way.
 *
 * <p>Threading: thread-safe.
 */
final class StubTimer implements Timer {

    /** A timeout that never expires; cancel succeeds once. */
    private final class StubTimeout implements Timeout {
        private final TimerTask task;
        private final AtomicInteger cancels = new AtomicInteger();

        StubTimeout(final TimerTask task) {
            this.task = task;
        }

        @Override
        public Timer timer() {
            return StubTimer.this;
        }

        @Override
        public TimerTask task() {
            return task;
        }

        @Override
        public boolean isExpired() {
            return false;
        }

        @Override
        public boolean isCancelled() {
            return cancels.get() > 0;
        }

        @Override
        public boolean cancel() {
            return cancels.getAndIncrement() == 0;
        }
    }

    @Override
    public Timeout newTimeout(final TimerTask task, final long delay, final TimeUnit unit) {
        return new StubTimeout(task);
    }

    @Override
    public Set<Timeout> stop() {
        return Set.of();
    }

    @Override
    public long pendingTimeouts() {
        return 0;
    }
}
