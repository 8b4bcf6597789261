package io.tickwheel.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import io.tickwheel.HierarchicalWheelTimer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Producers schedule through the adapter and cancel their own and each other's timeouts while the
 * worker expires them and, at the end, {@code stop()} races the last schedules. Accounting
 * invariant: every accepted timeout ended exactly once, by running, by the one successful
 * {@code cancel()}, or by being in {@code stop()}'s set; on Netty 4.2 each cancelled one (either
 * way) was told once through {@code TimerTask.cancelled}.
 */
class NettyTimerStressTest {

    private static final int PRODUCERS = 4;
    private static final int PER_PRODUCER = 20_000;

    /** Counts its own endings; compiled against 4.1, where {@code cancelled} is only this class's method. */
    static final class Counted implements TimerTask {
        final AtomicInteger runs = new AtomicInteger();
        final AtomicInteger told = new AtomicInteger();

        @Override
        public void run(final Timeout timeout) {
            runs.incrementAndGet();
        }

        public void cancelled(final Timeout timeout) {
            told.incrementAndGet();
        }
    }

    @Test
    void scheduleCancelExpireStop_everyTimeoutEndsExactlyOnce() throws Exception {
        NettyTimer timer = NettyTimer.wrap(HierarchicalWheelTimer.builder().build());
        Set<Timeout> accepted = ConcurrentHashMap.newKeySet();
        Set<Timeout> cancelledByCall = ConcurrentHashMap.newKeySet();
        List<Timeout> shared = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> producers = new ArrayList<>();
        AtomicInteger refused = new AtomicInteger();
        for (int p = 0; p < PRODUCERS; p++) {
            Thread producer = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                awaitQuietly(start);
                for (int i = 0; i < PER_PRODUCER; i++) {
                    Timeout timeout;
                    try {
                        timeout = timer.newTimeout(new Counted(), random.nextInt(0, 20), TimeUnit.MILLISECONDS);
                    } catch (IllegalStateException stopped) {
                        refused.incrementAndGet();
                        continue;
                    }
                    accepted.add(timeout);
                    Timeout victim = timeout;
                    if (random.nextInt(4) == 0) {
                        synchronized (shared) {
                            shared.add(timeout);
                            victim = shared.get(random.nextInt(shared.size()));
                        }
                    }
                    if (random.nextBoolean() && victim.cancel()) {
                        cancelledByCall.add(victim);
                    }
                }
            }, "netty-stress-producer-" + p);
            producer.start();
            producers.add(producer);
        }
        start.countDown();
        Thread.sleep(50);
        Set<Timeout> returned = timer.stop();
        for (Thread producer : producers) {
            producer.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(producer.isAlive()).as(producer.getName() + " finished").isFalse();
        }

        assertThat(accepted.size() + refused.get()).isEqualTo(PRODUCERS * PER_PRODUCER);
        assertThat(returned).isSubsetOf(accepted).doesNotContainAnyElementsOf(cancelledByCall);
        long ran = 0;
        for (Timeout timeout : accepted) {
            Counted task = (Counted) timeout.task();
            int endings = task.runs.get() + (cancelledByCall.contains(timeout) ? 1 : 0)
                    + (returned.contains(timeout) ? 1 : 0);
            assertThat(endings).as("endings of %s", timeout).isEqualTo(1);
            assertThat(timeout.isExpired()).isEqualTo(task.runs.get() == 1);
            assertThat(timeout.isCancelled()).isEqualTo(task.runs.get() == 0);
            assertThat(task.told.get()).isEqualTo(NettyVersionTest.netty42() && task.runs.get() == 0 ? 1 : 0);
            ran += task.runs.get();
        }
        assertThat(ran + cancelledByCall.size() + returned.size()).isEqualTo(accepted.size());
        assertThat(timer.pendingTimeouts()).isZero();
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
