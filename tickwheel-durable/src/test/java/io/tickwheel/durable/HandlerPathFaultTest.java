package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults between the wheel and the handler: an executor that throws an {@code Error} and a store
 * whose {@code claim} throws. Either would leave the timeout pending in the store but gone from
 * the wheel, so it would not fire before a restart; both must be tried again instead.
 */
class HandlerPathFaultTest {

    @TempDir
    Path dir;

    @Test
    void executorThrowsAnError_theTimeoutStillFires() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicInteger refusals = new AtomicInteger();
        Executor flaky = r -> {
            if (refusals.incrementAndGet() <= 2) {
                throw new OutOfMemoryError("unable to create native thread (injected)");
            }
            pool.execute(r);
        };
        Set<String> fired = ConcurrentHashMap.newKeySet();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).executor(flaky)
                .handler("t", t -> fired.add(t.key())).build()) {
            timer.schedule("t", "k", new byte[0], Duration.ZERO);
            await().atMost(Duration.ofSeconds(20)).until(() -> fired.contains("k"));
            assertThat(refusals.get()).as("refused twice, then ran").isGreaterThanOrEqualTo(3);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void claimThrows_theTimeoutIsClaimedAgainAndFires() {
        AtomicInteger claims = new AtomicInteger();
        Set<String> fired = ConcurrentHashMap.newKeySet();
        JournalStore journal = JournalStore.open(dir);
        TimerStore store = new Delegating(journal) {
            @Override
            public boolean claim(final StoredTimeout timeout) {
                if (claims.incrementAndGet() == 1) {
                    throw new IllegalStateException("claim failed (injected)");
                }
                return super.claim(timeout);
            }
        };
        try (DurableTimer timer = DurableTimer.builder(store).handler("t", t -> fired.add(t.key())).build()) {
            timer.schedule("t", "k", new byte[0], Duration.ZERO);
            await().atMost(Duration.ofSeconds(20)).until(() -> fired.contains("k"));
            assertThat(claims.get()).isEqualTo(2);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
        }
    }

    /** Forwards every call to another store. */
    private static class Delegating implements TimerStore {
        private final TimerStore inner;

        Delegating(final TimerStore inner) {
            this.inner = inner;
        }

        @Override
        public int maxPayloadBytes() {
            return inner.maxPayloadBytes();
        }

        @Override
        public void open(final Sink sink, final Clock clock) {
            inner.open(sink, clock);
        }

        @Override
        public CompletableFuture<StoredTimeout> schedule(final String type, final String key, final byte[] payload,
                final Instant deadline) {
            return inner.schedule(type, key, payload, deadline);
        }

        @Override
        public CompletableFuture<Boolean> cancel(final String type, final String key) {
            return inner.cancel(type, key);
        }

        @Override
        public Optional<StoredTimeout> find(final String type, final String key) {
            return inner.find(type, key);
        }

        @Override
        public long pendingTimeouts() {
            return inner.pendingTimeouts();
        }

        @Override
        public List<StoredTimeout> failed() {
            return inner.failed();
        }

        @Override
        public boolean retryFailed(final String type, final String key, final Instant deadline) {
            return inner.retryFailed(type, key, deadline);
        }

        @Override
        public boolean claim(final StoredTimeout timeout) {
            return inner.claim(timeout);
        }

        @Override
        public CompletableFuture<Void> done(final StoredTimeout timeout) {
            return inner.done(timeout);
        }

        @Override
        public CompletableFuture<StoredTimeout> retry(final StoredTimeout timeout, final Instant nextDeadline) {
            return inner.retry(timeout, nextDeadline);
        }

        @Override
        public CompletableFuture<Void> fail(final StoredTimeout timeout, final String reason) {
            return inner.fail(timeout, reason);
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
