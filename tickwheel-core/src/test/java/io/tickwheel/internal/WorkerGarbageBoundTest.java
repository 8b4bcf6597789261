package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.HashedWheelTimer;
import io.tickwheel.Timeout;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The purge threshold keeps cancelled-but-linked garbage within max(PURGE_MIN, live). */
class WorkerGarbageBoundTest {

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);

    private static TimingWheel wheelOf(final TimerCore core) throws Exception {
        Field l = TimerCore.class.getDeclaredField("lifecycle");
        l.setAccessible(true);
        Field w = Lifecycle.class.getDeclaredField("worker");
        w.setAccessible(true);
        Object worker = w.get(l.get(core));
        Field f = Worker.class.getDeclaredField("wheel");
        f.setAccessible(true);
        return (TimingWheel) f.get(worker);
    }

    private static void awaitSize(final TimingWheel wheel, final long size) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (wheel.size() != size && System.nanoTime() < end) {
            Thread.sleep(5);
        }
    }

    @Test
    void cancel_almostEverything_garbageStaysWithinMaxOfPurgeMinAndLive() throws Exception {
        // A public timer, not a bare core: a node finds the core to tell about a cancel from its timer.
        HashedWheelTimer timer = new HashedWheelTimer(r -> {
            Thread t = new Thread(r, "review-worker");
            t.setDaemon(true);
            return t;
        }, TICK, TimeUnit.NANOSECONDS, 512);
        Field coreField = HashedWheelTimer.class.getDeclaredField("core");
        coreField.setAccessible(true);
        TimerCore core = (TimerCore) coreField.get(timer);
        try {
            int n = (int) HandOff.PURGE_MIN + 10_000;
            List<Timeout> nodes = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                nodes.add(timer.newTimeout(t -> { }, 1, TimeUnit.HOURS));
            }
            // The PURGE_MIN-th cancel wakes the worker: it takes the queue (drops PURGE_MIN), links the rest.
            for (int i = 0; i < HandOff.PURGE_MIN; i++) {
                nodes.get(i).cancel();
            }
            TimingWheel wheel = wheelOf(core);
            awaitSize(wheel, n - HandOff.PURGE_MIN);
            assertThat(wheel.size()).isEqualTo(n - HandOff.PURGE_MIN);
            // Cancel all but one of the linked nodes.
            for (int i = (int) HandOff.PURGE_MIN; i < n - 1; i++) {
                nodes.get(i).cancel();
            }
            long live = 1;
            // The cancel that crosses the purge threshold wakes the worker; give it time to purge.
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(wheel.size() - live).as("garbage <= max(PURGE_MIN, live)")
                            .isLessThanOrEqualTo(Math.max(HandOff.PURGE_MIN, live)));
            assertThat(core.pendingTimeouts()).isEqualTo(live);
        } finally {
            timer.stop();
        }
    }
}
