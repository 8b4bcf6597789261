package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The purge threshold keeps the garbage of cancelled timeouts, queued or linked, within
 * max(PURGE_MIN, live); a purge leaves young timeouts queued, and one due soon still fires on time.
 */
class WorkerGarbageBoundTest {

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);

    private static TimingWheel wheelOf(final TimerCore core) throws Exception {
        return WorkerInternals.wheel(WorkerInternals.worker(core));
    }

    /** Cancelled timeouts the timer still holds: queued or linked, minus the live ones. */
    private static long garbage(final TimerCore core, final TimingWheel wheel) {
        return wheel.size() + core.handOff.backlog() - core.pendingTimeouts();
    }

    private static TimerCore coreOf(final Object timer) throws Exception {
        Field coreField = timer.getClass().getDeclaredField("core");
        coreField.setAccessible(true);
        return (TimerCore) coreField.get(timer);
    }

    @Test
    void cancel_almostEverything_garbageStaysWithinMaxOfPurgeMinAndLive() throws Exception {
        // A public timer, not a bare core: a node finds the core to tell about a cancel from its timer.
        HashedWheelTimer timer = new HashedWheelTimer(r -> {
            Thread t = new Thread(r, "review-worker");
            t.setDaemon(true);
            return t;
        }, TICK, TimeUnit.NANOSECONDS, 512);
        TimerCore core = coreOf(timer);
        try {
            int n = (int) HandOff.PURGE_MIN + 10_000;
            List<Timeout> nodes = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                nodes.add(timer.newTimeout(t -> { }, 1, TimeUnit.HOURS));
            }
            // The PURGE_MIN-th cancel brings the garbage to the bound and wakes the worker, which drops
            // the oldest queued timeouts until half the bound is left.
            for (int i = 0; i < HandOff.PURGE_MIN; i++) {
                nodes.get(i).cancel();
            }
            TimingWheel wheel = wheelOf(core);
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(garbage(core, wheel)).as("garbage after the purge the bound woke")
                            .isLessThanOrEqualTo(HandOff.PURGE_MIN / 2));
            assertThat(core.pendingTimeouts()).isEqualTo(n - HandOff.PURGE_MIN);
            // Twice PURGE_MIN more, then cancel all but one of the pending: without further purges
            // the garbage would reach about 2.6 x PURGE_MIN.
            for (int i = 0; i < 2 * HandOff.PURGE_MIN; i++) {
                nodes.add(timer.newTimeout(t -> { }, 1, TimeUnit.HOURS));
            }
            for (int i = (int) HandOff.PURGE_MIN; i < nodes.size() - 1; i++) {
                nodes.get(i).cancel();
            }
            long live = 1;
            // The cancels that reach the next purge marks wake the worker; give it time to purge.
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(garbage(core, wheel)).as("garbage <= max(PURGE_MIN, live)")
                            .isLessThanOrEqualTo(Math.max(HandOff.PURGE_MIN, live)));
            assertThat(core.pendingTimeouts()).isEqualTo(live);
        } finally {
            timer.stop();
        }
    }

    /**
     * Every cancel lands while the worker is busy in a task, so its one purge wake-up finds three
     * times the bound queued: more than one move takes. No further cancel comes to wake it, so
     * the purge must come back by itself until the garbage is within the bound.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void cancelsThatAllLandWhileTheWorkerIsBusy_arePurgedWithoutAnotherWakeUp(final boolean hierarchical)
            throws Exception {
        Timer timer = hierarchical ? HierarchicalWheelTimer.builder().build()
                : new HashedWheelTimer(1, TimeUnit.MILLISECONDS, 512);
        TimerCore core = coreOf(timer);
        try {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            timer.newTimeout(t -> {
                running.countDown();
                release.await();
            }, 1, TimeUnit.MILLISECONDS);
            assertThat(running.await(10, TimeUnit.SECONDS)).as("the holding task runs").isTrue();
            int n = 3 * (int) HandOff.PURGE_MIN;
            List<Timeout> nodes = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                nodes.add(timer.newTimeout(t -> { }, 1, TimeUnit.HOURS));
            }
            for (int i = 0; i < n - 1; i++) {
                assertThat(nodes.get(i).cancel()).isTrue();
            }
            release.countDown();
            TimingWheel wheel = wheelOf(core);
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(garbage(core, wheel)).as("garbage <= max(PURGE_MIN, live)")
                            .isLessThanOrEqualTo(HandOff.PURGE_MIN));
            assertThat(core.pendingTimeouts()).isEqualTo(1);
            // Settled means asleep again, not purging on and on: its CPU over half a second.
            Thread worker = core.workerThread();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                    worker.getState() == Thread.State.WAITING || worker.getState() == Thread.State.TIMED_WAITING);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long cpuBefore = threads.getThreadCpuTime(worker.getId());
            Thread.sleep(500);
            long cpuUsed = threads.getThreadCpuTime(worker.getId()) - cpuBefore;
            assertThat(cpuBefore).as("thread CPU time is measured here").isNotNegative();
            assertThat(cpuUsed).as("worker CPU in 500 ms once settled, ns")
                    .isLessThan(TimeUnit.MILLISECONDS.toNanos(100));
            assertThat(timer.stop()).containsExactly(nodes.get(n - 1));
        } finally {
            timer.stop();
        }
    }

    /** Schedules one and cancels the oldest of {@code ring}, {@code ops} times; the peak garbage sampled. */
    private static long churn(final Timer timer, final Timeout[] ring, final int ops, final TimerCore core,
            final TimingWheel wheel) {
        long peak = 0;
        for (int op = 0; op < ops; op++) {
            int slot = op % ring.length;
            Timeout fresh = timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
            assertThat(ring[slot].cancel()).isTrue();
            ring[slot] = fresh;
            if (op % 5_000 == 0) {
                peak = Math.max(peak, garbage(core, wheel));
            }
        }
        return peak;
    }

    @Test
    void churn_garbageStaysBounded_andEveryTimeoutEndsOnce() throws Exception {
        HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder().build();
        TimerCore core = coreOf(timer);
        try {
            TimingWheel wheel = wheelOf(core);
            Timeout[] ring = new Timeout[2_000];
            for (int i = 0; i < ring.length; i++) {
                ring[i] = timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
            }
            long bound = Math.max(HandOff.PURGE_MIN, ring.length);
            // A first churn, unsampled, lets the JIT compile the worker's purge: an interpreted purge
            // of 65,536 nodes takes long enough for the compiled caller to cancel 3 x bound more. The
            // bound is a property of the running timer; the settle check below still covers the start.
            churn(timer, ring, 600_000, core, wheel);
            long peak = churn(timer, ring, 600_000, core, wheel);
            // The worker answers a wake-up while the caller runs on, so the garbage may overshoot the
            // bound by what the caller cancels meanwhile; without purges it would reach 598,000.
            assertThat(peak).as("peak garbage sampled during the churn").isLessThanOrEqualTo(3 * bound);
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(garbage(core, wheel)).isLessThanOrEqualTo(bound));
            assertThat(core.pendingTimeouts()).isEqualTo(ring.length);
            Set<Timeout> returned = timer.stop();
            assertThat(returned).containsExactlyInAnyOrder(ring);
        } finally {
            timer.stop();
        }
    }

    @Test
    void aYoungTimeoutDueSoon_leftQueuedByAPurge_firesOnTime() throws Exception {
        HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder().build();
        try {
            List<Timeout> far = new ArrayList<>();
            for (int i = 0; i < HandOff.PURGE_MIN; i++) {
                far.add(timer.newTimeout(t -> { }, 1, TimeUnit.HOURS));
            }
            AtomicInteger fires = new AtomicInteger();
            AtomicLong firedAt = new AtomicLong();
            long delay = TimeUnit.MILLISECONDS.toNanos(300);
            long scheduledAt = System.nanoTime();
            timer.newTimeout(t -> {
                firedAt.set(System.nanoTime());
                fires.incrementAndGet();
            }, delay, TimeUnit.NANOSECONDS);
            // The last of these cancels wakes the worker for a purge, which drops the oldest far
            // timeouts and leaves the youngest queued, the short one among them.
            for (Timeout timeout : far) {
                timeout.cancel();
            }
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> fires.get() == 1);
            long late = firedAt.get() - (scheduledAt + delay);
            assertThat(late).as("never early").isGreaterThanOrEqualTo(0);
            assertThat(late).as("lateness").isLessThan(TimeUnit.SECONDS.toNanos(1));
            Thread.sleep(50);
            assertThat(fires.get()).as("fired once").isEqualTo(1);
            assertThat(timer.pendingTimeouts()).isZero();
        } finally {
            timer.stop();
        }
    }
}
