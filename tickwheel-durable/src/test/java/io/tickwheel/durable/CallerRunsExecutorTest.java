package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Handler executors that run a task on the submitting thread (a saturated pool with
 * {@code CallerRunsPolicy}, or a direct executor): no handler may then run on a thread of the
 * store (the journal's writer delivers timeouts that are due when written), where a handler that
 * schedules and waits for the acknowledgement would wait for its own thread.
 */
class CallerRunsExecutorTest {

    private static final int KEYS = 20;
    private static final int ROUNDS = 5;

    @TempDir
    Path dir;

    @Test
    void saturatedCallerRunsPool_selfReschedulingHandlersAllFireAndNeverRunOnTheStoresThreads() throws Exception {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new SynchronousQueue<>(),
                new ThreadPoolExecutor.CallerRunsPolicy());
        try {
            runRounds(pool);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void directExecutor_selfReschedulingHandlersAllFireAndNeverRunOnTheStoresThreads() {
        runRounds(Runnable::run);
    }

    private void runRounds(final Executor executor) {
        AtomicReference<DurableTimer> self = new AtomicReference<>();
        Map<String, Integer> fired = new ConcurrentHashMap<>();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).executor(executor).handler("t", t -> {
            threads.add(Thread.currentThread().getName());
            int round = Integer.parseInt(new String(t.payload(), StandardCharsets.US_ASCII));
            fired.merge(t.key(), 1, Integer::sum);
            if (round < ROUNDS) {
                // Due at once, and this call returns only once the journal has it: the writer then
                // delivers it straight away, and must not be the thread that runs this handler.
                self.get().schedule("t", t.key(), payload(round + 1), Duration.ZERO);
            }
        }).build()) {
            self.set(timer);
            for (int k = 0; k < KEYS; k++) {
                timer.schedule("t", "k" + k, payload(1), Duration.ZERO);
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> fired.values().stream().mapToInt(Integer::intValue).sum() == KEYS * ROUNDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
            assertThat(fired).hasSize(KEYS).allSatisfy((key, n) -> assertThat(n).as(key).isEqualTo(ROUNDS));
            assertThat(threads).noneMatch(name -> name.startsWith("tickwheel-journal"));
        }
    }

    private static byte[] payload(final int round) {
        return Integer.toString(round).getBytes(StandardCharsets.US_ASCII);
    }
}
