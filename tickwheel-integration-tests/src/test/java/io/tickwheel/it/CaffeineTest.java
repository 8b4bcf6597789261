package io.tickwheel.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.RemovalListener;
import com.github.benmanes.caffeine.cache.Scheduler;
import io.tickwheel.Timer;
import io.tickwheel.Timers;
import io.tickwheel.WheelScheduledExecutorService;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A Caffeine cache whose scheduler is the wheel: an entry is evicted on time, with its removal
 * listener told, although nothing touches the cache after the write (without a scheduler Caffeine
 * evicts only during reads and writes). The first test's cache setup is the README's lines.
 */
class CaffeineTest {

    /** A removal seen by the listener: the key, why, and when (System.nanoTime). */
    record Removal(String key, RemovalCause cause, long atNanos) {
    }

    @Test
    void readmeLines_entryExpiresOnTimeWithoutAnyAccess() throws Exception {
        Duration ttl = Duration.ofMillis(300);
        BlockingQueue<Removal> removals = new LinkedBlockingQueue<>();
        RemovalListener<String, String> listener =
                (key, value, cause) -> removals.add(new Removal(key, cause, System.nanoTime()));

        ExecutorService workers = Executors.newFixedThreadPool(2);
        Cache<String, String> sessions = Caffeine.newBuilder()
                .expireAfterWrite(ttl)
                .scheduler(Scheduler.forScheduledExecutorService(
                        new WheelScheduledExecutorService(Timers.shared(), workers)))
                .removalListener(listener)
                .build();

        try {
            assertExpiresUntouched(sessions, ttl, removals);
        } finally {
            workers.shutdownNow();
        }
    }

    @Test
    void expiry_isScheduledOnTheWheel() throws Exception {
        Duration ttl = Duration.ofMillis(200);
        BlockingQueue<Removal> removals = new LinkedBlockingQueue<>();
        ObservedTimer wheel = new ObservedTimer();
        ExecutorService workers = Executors.newFixedThreadPool(2);
        Cache<String, String> cache = Caffeine.newBuilder()
                .expireAfterWrite(ttl)
                .scheduler(Scheduler.forScheduledExecutorService(new WheelScheduledExecutorService(wheel, workers)))
                .removalListener((String key, String value, RemovalCause cause)
                        -> removals.add(new Removal(key, cause, System.nanoTime())))
                .build();
        try {
            assertExpiresUntouched(cache, ttl, removals);
            assertThat(wheel.scheduled()).as("Caffeine scheduled its clean-up on the wheel").isPositive();
            assertThat(wheel.runs()).as("and the wheel's worker fired it").isNotEmpty()
                    .allSatisfy(run -> assertThat(run.thread()).isEqualTo(ObservedTimer.WORKER));
        } finally {
            workers.shutdownNow();
            stop(wheel);
        }
    }

    private static void assertExpiresUntouched(final Cache<String, String> cache, final Duration ttl,
            final BlockingQueue<Removal> removals) throws InterruptedException {
        long written = System.nanoTime();
        cache.put("session", "alice");
        // Caffeine's pacer may round a clean-up up by about a second; 5 s more is generous but real.
        Removal removal = removals.poll(ttl.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        assertThat(removal).as("the removal listener was told without any access to the cache").isNotNull();
        assertThat(removal.key()).isEqualTo("session");
        assertThat(removal.cause()).isEqualTo(RemovalCause.EXPIRED);
        assertThat(removal.atNanos() - written).as("never before the entry's time to live")
                .isGreaterThanOrEqualTo(ttl.toNanos());
        assertThat(removals).isEmpty();
    }

    private static void stop(final Timer timer) {
        timer.stop();
    }
}
