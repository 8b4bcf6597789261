package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.testing.StackEdge;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Faults on the path a task takes when it re-arms from the worker thread (the worker's own lane):
 * the worker failing after the re-arm, and a {@link StackOverflowError} at every depth of a
 * {@code newTimeout} made on the worker. Found by review: the second left a timeout stored in the
 * lane but not counted, so {@code stop()} returned more than {@code pendingTimeouts()} said.
 */
class OwnLaneFaultTest {

    private static final long HOUR_MILLIS = TimeUnit.HOURS.toMillis(1);
    private static final TimerTask TASK = timeout -> { };

    @Test
    void workerFailsAfterATaskReArmed_stopReturnsTheChild() throws Exception {
        ManualClock clock = new ManualClock(1L << 40);
        Thread[] worker = new Thread[1];
        Timer timer = new HashedWheelTimer(clock, runnable -> {
            Thread thread = new Thread(runnable, "own-lane-drain");
            thread.setDaemon(true);
            worker[0] = thread;
            return thread;
        }, 1, TimeUnit.MILLISECONDS, 64, false, -1, null);
        AtomicReference<Timeout> child = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(parent -> {
            child.set(parent.timer().newTimeout(timeout -> { }, 1, TimeUnit.HOURS));
            clock.onWorkerRead(() -> {
                throw new IllegalStateException("the clock fails after the re-arm");
            });
            ran.countDown();
        }, 1, TimeUnit.MILLISECONDS);
        clock.attach(worker[0]);
        clock.advance(Duration.ofMillis(1));
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        worker[0].join(5_000);

        assertThat(timer.stop()).containsExactly(child.get());
        assertThat(child.get().isCancelled()).isTrue();
    }

    @Test
    void stackOverflowAtAnyDepthOfAReArm_everyAcceptedTimeoutIsCountedAndReturned() throws Exception {
        for (boolean hierarchical : new boolean[] {true, false}) {
            Timer timer = hierarchical
                    ? HierarchicalWheelTimer.builder().threadFactory(OwnLaneFaultTest::smallStack).build()
                    : HashedWheelTimer.builder().threadFactory(OwnLaneFaultTest::smallStack)
                            .tickDuration(Duration.ofMillis(10)).build();
            Set<Timeout> accepted = new HashSet<>();
            long overflows = 0;
            for (int round = 0; round < 50; round++) {
                CountDownLatch done = new CountDownLatch(1);
                Sweep sweep = new Sweep(timer);
                timer.newTimeout(timeout -> {
                    try {
                        new StackEdge(sweep).run();
                    } finally {
                        done.countDown();
                    }
                }, 0, TimeUnit.MILLISECONDS);
                assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
                for (int i = 0; i < sweep.count; i++) {
                    accepted.add(sweep.handles[i]);
                }
                overflows += sweep.overflows;
            }
            TimerStats stats = hierarchical ? ((HierarchicalWheelTimer) timer).stats()
                    : ((HashedWheelTimer) timer).stats();
            long pending = timer.pendingTimeouts();
            Set<Timeout> returned = timer.stop();
            String what = (hierarchical ? "hierarchical" : "hashed") + ", " + overflows + " overflows";
            assertThat(overflows).as(what).isPositive();
            assertThat(pending).as(what).isEqualTo(accepted.size());
            assertThat(stats.pending()).as(what).isEqualTo(accepted.size());
            assertThat(returned).as(what).hasSize(accepted.size()).containsAll(accepted);
        }
    }

    private static Thread smallStack(final Runnable runnable) {
        Thread thread = new Thread(null, runnable, "own-lane-overflow", 256 * 1024);
        thread.setDaemon(true);
        return thread;
    }

    /** Schedules an hour out at the stack's edge; written by the worker only, read after the round. */
    private static final class Sweep implements Runnable {
        private final Timer timer;
        /** An array, not a set: nothing in the deep frames may allocate or call more than it must. */
        final Timeout[] handles = new Timeout[StackEdge.MAX_CALLS + 1];
        int count;
        long overflows;

        Sweep(final Timer timer) {
            this.timer = timer;
        }

        @Override
        public void run() {
            try {
                handles[count] = timer.newTimeout(TASK, HOUR_MILLIS, TimeUnit.MILLISECONDS);
                count++;
            } catch (StackOverflowError expected) {
                overflows++;
            }
        }
    }
}
