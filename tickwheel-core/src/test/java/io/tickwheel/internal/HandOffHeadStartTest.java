package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A long backlog of far timeouts stays in the hand-off queue, unlinked, until its head start
 * before the earliest is due (backlog x TRANSFER_NANOS_PER_NODE), then is moved into the wheel
 * before anything is due, and every timeout fires on its tick. On a manual clock.
 */
class HandOffHeadStartTest {

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long DELAY = TimeUnit.SECONDS.toNanos(10);

    @Test
    void farBacklog_staysQueuedUntilItsHeadStart_thenIsLinkedBeforeDueAndFiresOnTime() throws Exception {
        AtomicLong now = new AtomicLong(-123_456_789L);
        long origin = now.get();
        TimerCore core = new TimerCore(new TimerOptions(TimerOptions.Kind.HIERARCHICAL, "HierarchicalWheelTimer")
                .tickNanos(TICK).wheelSize(6).clock(now::get).threadFactory(r -> {
                    Thread t = new Thread(r, "head-start-worker");
                    t.setDaemon(true);
                    return t;
                }));
        try {
            TimingWheel wheel = WorkerInternals.wheel(WorkerInternals.worker(core));
            HandOff handOff = core.handOff;
            int n = (int) (3 * HandOff.TRANSFER_BATCH);
            AtomicInteger fired = new AtomicInteger();
            for (int i = 0; i < n; i++) {
                core.schedule(null, t -> fired.incrementAndGet(), DELAY);
            }
            Thread worker = core.workerThread();
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> worker.getState() == Thread.State.TIMED_WAITING);
            assertThat(handOff.backlog()).as("far nodes wait in the queue").isEqualTo(n);
            assertThat(wheel.size()).isZero();

            long headStart = n * HandOff.TRANSFER_NANOS_PER_NODE;
            now.set(origin + DELAY - headStart - 2 * TICK);
            LockSupport.unpark(worker);
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> worker.getState() == Thread.State.TIMED_WAITING);
            assertThat(wheel.size()).as("still before the head start: nothing moved").isZero();

            now.set(origin + DELAY - headStart);
            LockSupport.unpark(worker);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> wheel.size() == n);
            assertThat(fired.get()).as("moved ahead of time, none fired early").isZero();
            assertThat(core.pendingTimeouts()).isEqualTo(n);

            now.set(origin + DELAY);
            LockSupport.unpark(worker);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> fired.get() == n);
            assertThat(core.pendingTimeouts()).isZero();
        } finally {
            core.stop();
        }
    }
}
