package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The worker does not park while its own lane holds nodes: a task that re-arms with no delay
 * (due at once when linked) runs on the next pass, with no wake-up to wait for. On a manual clock
 * that never moves after the first tick, so that nothing but the lane can keep the worker going:
 * on the system clock a tick boundary passes so often that a worker parking with nodes in its lane
 * was woken by the next one and no test saw it.
 */
class OwnLaneParkTest {

    private static final int CHAIN = 50;

    @Test
    void zeroDelayReArmChain_runsToItsEndWithTheClockStill() throws Exception {
        for (boolean hierarchical : new boolean[] {true, false}) {
            ManualClock clock = new ManualClock(1L << 40);
            Thread[] worker = new Thread[1];
            java.util.concurrent.ThreadFactory factory = runnable -> {
                Thread thread = new Thread(runnable, "own-lane-park");
                thread.setDaemon(true);
                worker[0] = thread;
                return thread;
            };
            Timer timer = hierarchical
                    ? HierarchicalWheelTimer.builder().threadFactory(factory).tickDuration(Duration.ofMillis(1))
                            .build(clock, true)
                    : new HashedWheelTimer(clock, factory, 1, TimeUnit.MILLISECONDS, 64, false, -1, null);
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            TimerTask chain = new TimerTask() {
                @Override
                public void run(final Timeout timeout) {
                    if (runs.incrementAndGet() < CHAIN) {
                        timeout.timer().newTimeout(this, 0, TimeUnit.MILLISECONDS);
                    } else {
                        done.countDown();
                    }
                }
            };
            timer.newTimeout(chain, 1, TimeUnit.MILLISECONDS);
            clock.attach(worker[0]);
            clock.advance(Duration.ofMillis(1));

            assertThat(done.await(5, TimeUnit.SECONDS))
                    .as("%s: the chain ran to its end with the clock still (%d of %d runs)",
                            hierarchical ? "hierarchical" : "hashed", runs.get(), CHAIN)
                    .isTrue();
            assertThat(timer.stop()).isEmpty();
        }
    }
}
