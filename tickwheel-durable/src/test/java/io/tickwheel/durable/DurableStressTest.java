package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Accounting under concurrency, without crashes: 8 threads schedule, replace and cancel short
 * timeouts while handlers fire them. Every acknowledged incarnation (version) ends exactly once:
 * it fires exactly once, or it was superseded (cancelled or replaced by an acknowledged call) and
 * does not fire, except that a fire already due when it was superseded may have started (the
 * handler had claimed it): then its deadline is not after the superseding call's acknowledgement.
 * Nothing fires twice, nothing acknowledged is left pending, nothing is lost.
 */
class DurableStressTest {

    private static final int THREADS = 8;
    private static final int OPS = 1500;

    @TempDir
    Path dir;

    /** One acknowledged incarnation. */
    private record Incarnation(long version, Instant deadline, long supersededAtMillis) {
    }

    @Test
    void concurrentScheduleCancelReplace_eachAcknowledgedTimeoutEndsExactlyOnce() throws Exception {
        Map<Long, Integer> fires = new ConcurrentHashMap<>();
        Map<Long, Incarnation> acked = new ConcurrentHashMap<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long seed = new SplittableRandom().nextLong();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.builder(dir).fsync(false).build())
                .handler("s", t -> fires.merge(((StoredTimeout) t).version(), 1, Integer::sum)).build()) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                int id = i;
                Thread th = new Thread(() -> {
                    try {
                        start.await();
                        work(timer, id, new SplittableRandom(seed + id), acked);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                threads.add(th);
                th.start();
            }
            start.countDown();
            for (Thread th : threads) {
                th.join(120_000);
                assertThat(th.isAlive()).as("seed %d: %s finished within 120 s", seed, th.getName()).isFalse();
            }
            assertThat(failure.get()).as("seed %d", seed).isNull();
            await().atMost(Duration.ofSeconds(30)).until(() -> timer.pendingTimeouts() == 0);
        }
        long fired = 0;
        long superseded = 0;
        long raced = 0;
        for (Incarnation inc : acked.values()) {
            int n = fires.getOrDefault(inc.version(), 0);
            assertThat(n).as("seed %d: v%d fired %d times", seed, inc.version(), n).isLessThanOrEqualTo(1);
            if (inc.supersededAtMillis() == Long.MAX_VALUE) {
                assertThat(n).as("seed %d: v%d neither superseded nor fired", seed, inc.version()).isEqualTo(1);
                fired++;
            } else if (n == 1) {
                assertThat(inc.deadline().toEpochMilli()).as("seed %d: v%d fired after being superseded", seed,
                        inc.version()).isLessThanOrEqualTo(inc.supersededAtMillis());
                raced++;
            } else {
                superseded++;
            }
        }
        assertThat(fires.keySet()).as("only acknowledged versions fire").allMatch(acked::containsKey);
        System.out.printf("durable stress (seed %d): %d acknowledged, %d fired, %d superseded, %d fired before "
                + "or while being superseded%n", seed, acked.size(), fired, superseded, raced);
        assertThat(fired).isPositive();
        assertThat(superseded).isPositive();
    }

    private static void work(final DurableTimer timer, final int id, final SplittableRandom rnd,
            final Map<Long, Incarnation> acked) {
        Map<String, Long> current = new java.util.HashMap<>();
        for (int i = 0; i < OPS; i++) {
            String key = "t" + id + "-" + rnd.nextInt(300);
            Long prev = current.get(key);
            if (rnd.nextInt(4) > 0) {
                Instant deadline = Instant.now().plusMillis(rnd.nextInt(150));
                StoredTimeout t = (StoredTimeout) timer.schedule("s", key, new byte[] {(byte) i}, deadline);
                long ackAt = System.currentTimeMillis();
                supersede(acked, prev, ackAt);
                acked.put(t.version(), new Incarnation(t.version(), deadline, Long.MAX_VALUE));
                current.put(key, t.version());
            } else {
                boolean cancelled = timer.cancel("s", key);
                long ackAt = System.currentTimeMillis();
                if (cancelled) {
                    supersede(acked, prev, ackAt);
                    current.remove(key);
                }
            }
        }
    }

    private static void supersede(final Map<Long, Incarnation> acked, final Long prev, final long at) {
        if (prev != null) {
            acked.computeIfPresent(prev, (v, inc) -> new Incarnation(v, inc.deadline(), at));
        }
    }
}
