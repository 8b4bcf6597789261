package io.tickwheel.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import io.tickwheel.HierarchicalWheelTimer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Netty 4.2's {@code TimerTask.cancelled(Timeout)} is called once per cancelled timeout (by
 * {@code cancel()} or by {@code stop()}), with the Netty handle; on Netty 4.1 the same task's method
 * is never called, because 4.1 has no such callback. The module's two Surefire runs check both.
 */
class NettyTimerCancelledTest {

    /** Compiled against 4.1, where {@code cancelled} is this class's own method; on 4.2 it overrides. */
    static final class Recording implements TimerTask {
        final List<Timeout> cancelled = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        /** What {@code cancelled} throws, the same instance each time; null if it returns. */
        final IllegalStateException failure;

        Recording(final boolean fail) {
            this.failure = fail ? new IllegalStateException("expected by the test: cancelled() throws") : null;
        }

        @Override
        public void run(final Timeout timeout) {
            throw new AssertionError("a cancelled timeout ran");
        }

        public void cancelled(final Timeout timeout) {
            cancelled.add(timeout);
            threads.add(Thread.currentThread().getName());
            if (failure != null) {
                throw failure;
            }
        }
    }

    private final List<NettyTimer> timers = new ArrayList<>();

    private NettyTimer newTimer() {
        NettyTimer timer = NettyTimer.wrap(HierarchicalWheelTimer.builder().build());
        timers.add(timer);
        return timer;
    }

    @AfterEach
    void stopTimers() {
        timers.forEach(NettyTimer::stop);
    }

    @Test
    void cancel_callsCancelledOnceOnTheCancellingThread_onNetty42Only() {
        NettyTimer timer = newTimer();
        Recording task = new Recording(false);
        Timeout timeout = timer.newTimeout(task, 1, TimeUnit.HOURS);

        assertThat(timeout.cancel()).isTrue();
        assertThat(timeout.cancel()).isFalse();

        if (NettyVersionTest.netty42()) {
            assertThat(task.cancelled).containsExactly(timeout);
            assertThat(task.threads).containsExactly(Thread.currentThread().getName());
        } else {
            assertThat(task.cancelled).isEmpty();
        }
    }

    @Test
    void stop_callsCancelledForEachReturnedTimeout_onNetty42Only() {
        NettyTimer timer = newTimer();
        Recording task = new Recording(false);
        Timeout first = timer.newTimeout(task, 1, TimeUnit.HOURS);
        Timeout second = timer.newTimeout(task, 2, TimeUnit.HOURS);

        Set<Timeout> returned = timer.stop();

        assertThat(returned).containsExactlyInAnyOrder(first, second);
        if (NettyVersionTest.netty42()) {
            assertThat(task.cancelled).containsExactlyInAnyOrder(first, second);
        } else {
            assertThat(task.cancelled).isEmpty();
        }
    }

    @Test
    void cancelledThatThrows_isLogged_andTheCancelStillHolds() throws Exception {
        NettyTimer timer = newTimer();
        Recording task = new Recording(true);
        try (LogCapture log = LogCapture.of(HierarchicalWheelTimer.class)) {
            Timeout timeout = timer.newTimeout(task, 50, TimeUnit.MILLISECONDS);

            assertThat(timeout.cancel()).isTrue();
            assertThat(timeout.isCancelled()).isTrue();
            // cancelled() runs on the cancelling thread, so what it threw is logged before cancel() returns.
            if (NettyVersionTest.netty42()) {
                assertThat(task.cancelled).containsExactly(timeout);
                List<LogRecord> logged = log.find(Level.WARNING, task.failure);
                assertThat(logged).hasSize(1);
                assertThat(logged.get(0).getMessage()).contains("cancelled()");
            } else {
                assertThat(task.cancelled).isEmpty();
                assertThat(log.find(Level.WARNING, task.failure)).isEmpty();
            }
            // Timeouts come due in deadline order: once a later one has run, the cancelled one would have.
            CountDownLatch later = new CountDownLatch(1);
            timer.newTimeout(t -> later.countDown(), 100, TimeUnit.MILLISECONDS);
            assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(timeout.isExpired()).isFalse();
            assertThat(timer.pendingTimeouts()).isZero();
        }
    }
}
