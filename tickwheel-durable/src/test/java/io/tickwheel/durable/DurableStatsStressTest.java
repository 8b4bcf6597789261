package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several threads schedule, replace and cancel (blocking and async), each on its own keys, and read
 * {@code stats()} as they go: no count is lost, the final counts equal the calls the store
 * acknowledged, and no reading is behind what its own thread had already seen acknowledged.
 */
class DurableStatsStressTest {

    private static final int THREADS = 4;
    private static final int OPS = 1000;
    private static final int KEYS = 50;

    @TempDir
    Path dir;

    @Test
    void concurrentScheduleAndCancel_countsEqualTheAcknowledgedCalls() throws Exception {
        LongAdder scheduled = new LongAdder();
        LongAdder cancelled = new LongAdder();
        LongAdder cancelCalls = new LongAdder();
        LongAdder pending = new LongAdder();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long seed = new SplittableRandom().nextLong();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.builder(dir).fsync(false).build()).build()) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                SplittableRandom random = new SplittableRandom(seed + i);
                String prefix = "t" + i + "-";
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                        run(timer, random, prefix, scheduled, cancelled, cancelCalls, pending);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "stats-stress-" + i));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(100));
                assertThat(thread.isAlive()).as("seed %d: %s finished", seed, thread.getName()).isFalse();
            }
            assertThat(failure.get()).as("seed %d", seed).isNull();

            DurableTimerStats stats = timer.stats();
            assertThat(stats.scheduled()).as("seed %d", seed).isEqualTo(scheduled.sum());
            assertThat(stats.cancelled()).as("seed %d", seed).isEqualTo(cancelled.sum());
            assertThat(stats.scheduleLatency().count()).isEqualTo(scheduled.sum());
            assertThat(stats.cancelLatency().count()).isEqualTo(cancelCalls.sum());
            assertThat(stats.storeErrors()).isZero();
            assertThat(scheduled.sum() + cancelCalls.sum()).isEqualTo((long) THREADS * OPS);
            assertThat(timer.pendingTimeouts()).isEqualTo(pending.sum());
            assertThat(stats.fired() + stats.retried() + stats.failed() + stats.claimRefused()).isZero();
        }
    }

    /**
     * One thread's calls on its own keys, one at a time, so it knows which of them are pending; each
     * stats() it reads must include the calls it has seen acknowledged.
     */
    private static void run(final DurableTimer timer, final SplittableRandom random, final String prefix,
            final LongAdder scheduled, final LongAdder cancelled, final LongAdder cancelCalls,
            final LongAdder pending) {
        Instant far = Instant.now().plusSeconds(3600);
        Set<String> mine = new HashSet<>();
        long myScheduled = 0;
        long myCancelled = 0;
        for (int op = 0; op < OPS; op++) {
            String key = prefix + random.nextInt(KEYS);
            boolean async = random.nextBoolean();
            if (random.nextInt(3) == 0) {
                boolean wasPending = async ? timer.cancelAsync("s", key).join() : timer.cancel("s", key);
                assertThat(wasPending).as(key).isEqualTo(mine.remove(key));
                cancelCalls.increment();
                if (wasPending) {
                    cancelled.increment();
                    myCancelled++;
                }
                assertThat(timer.stats().cancelled()).isGreaterThanOrEqualTo(myCancelled);
            } else {
                if (async) {
                    timer.scheduleAsync("s", key, new byte[0], far).join();
                } else {
                    timer.schedule("s", key, new byte[0], far);
                }
                mine.add(key);
                scheduled.increment();
                myScheduled++;
                assertThat(timer.stats().scheduled()).isGreaterThanOrEqualTo(myScheduled);
            }
        }
        pending.add(mine.size());
    }
}
