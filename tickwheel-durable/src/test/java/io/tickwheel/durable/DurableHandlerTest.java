package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Handlers that throw, block, re-schedule themselves or cancel others; unknown types; clock jumps. */
class DurableHandlerTest {

    @TempDir
    Path dir;

    private final List<DurableTimeout> runs = new CopyOnWriteArrayList<>();

    @Test
    void throwingHandler_retriedWithBackoffThenFailed_andRetryFailedRunsItAgain() {
        AtomicInteger failUntil = new AtomicInteger(Integer.MAX_VALUE);
        List<Instant> at = new CopyOnWriteArrayList<>();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).retry(3, Duration.ofMillis(200))
                .handler("t", t -> {
                    runs.add(t);
                    at.add(Instant.now());
                    if (runs.size() <= failUntil.get()) {
                        throw new IllegalStateException("boom " + t.attempt());
                    }
                }).build()) {
            timer.schedule("t", "k", new byte[] {9}, Duration.ZERO);
            await().atMost(Duration.ofSeconds(20)).until(() -> timer.failed().size() == 1);
            assertThat(runs).extracting(DurableTimeout::attempt).containsExactly(1, 2, 3);
            // backoff 200 ms then 400 ms: never sooner
            assertThat(Duration.between(at.get(0), at.get(1))).isGreaterThanOrEqualTo(Duration.ofMillis(190));
            assertThat(Duration.between(at.get(1), at.get(2))).isGreaterThanOrEqualTo(Duration.ofMillis(390));
            DurableTimeout failed = timer.failed().get(0);
            assertThat(failed.key()).isEqualTo("k");
            assertThat(failed.payload()).containsExactly(9);
            assertThat(timer.pendingTimeouts()).isZero();
            assertThat(timer.find("t", "k")).isEmpty();
            failUntil.set(3);
            assertThat(timer.retryFailed("t", "k")).isTrue();
            assertThat(timer.retryFailed("t", "k")).isFalse();
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 4);
            assertThat(runs.get(3).attempt()).isEqualTo(1);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
            assertThat(timer.failed()).isEmpty();
        }
    }

    @Test
    void failedSet_survivesRestart() {
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).retry(1, Duration.ofMillis(10))
                .handler("t", t -> {
                    throw new Exception("always");
                }).build()) {
            timer.schedule("t", "k", new byte[] {1}, Duration.ZERO);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.failed().size() == 1);
        }
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).build()) {
            assertThat(timer.failed()).extracting(DurableTimeout::key).containsExactly("k");
            assertThat(timer.pendingTimeouts()).isZero();
        }
    }

    @Test
    void blockingHandler_othersStillFire() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).handler("t", t -> {
            if (t.key().equals("block")) {
                release.await(30, TimeUnit.SECONDS);
            }
            runs.add(t);
        }).build()) {
            timer.schedule("t", "block", new byte[0], Duration.ZERO);
            for (int i = 0; i < 20; i++) {
                timer.schedule("t", "k" + i, new byte[0], Duration.ofMillis(100));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 20);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 1);
            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 21);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
        }
    }

    @Test
    void handler_reschedulesItselfAndCancelsAnother() {
        AtomicReference<DurableTimer> self = new AtomicReference<>();
        Map<String, Integer> count = new ConcurrentHashMap<>();
        // What the killer's cancel returned, checked on this thread: an assertion inside the handler would
        // only make the handler throw, which the timer retries.
        List<Boolean> cancelled = new CopyOnWriteArrayList<>();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).handler("t", t -> {
            int n = count.merge(t.key(), 1, Integer::sum);
            if (t.key().equals("lease") && n < 3) {
                self.get().schedule("t", "lease", new byte[0], Duration.ofMillis(100));
            }
            if (t.key().equals("killer")) {
                cancelled.add(self.get().cancel("t", "victim"));
            }
        }).build()) {
            self.set(timer);
            timer.schedule("t", "lease", new byte[0], Duration.ofMillis(50));
            timer.schedule("t", "killer", new byte[0], Duration.ofMillis(100));
            timer.schedule("t", "victim", new byte[0], Duration.ofMillis(1500));
            await().atMost(Duration.ofSeconds(10)).until(() -> count.getOrDefault("lease", 0) == 3
                    && count.containsKey("killer"));
            await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                    .until(() -> timer.pendingTimeouts() == 0);
            assertThat(count).doesNotContainKey("victim");
            assertThat(count.get("lease")).isEqualTo(3);
            assertThat(cancelled).containsExactly(true);
        }
    }

    @Test
    void unknownType_keptNotFired_thenFiredByAProcessWithTheHandler() {
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).handler("known", runs::add).build()) {
            timer.schedule("ghost", "g", new byte[0], Duration.ZERO);
            timer.schedule("known", "k", new byte[0], Duration.ofMillis(200));
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 1);
            assertThat(timer.find("ghost", "g")).isPresent();
        }
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).handler("ghost", runs::add).build()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 2);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
            assertThat(runs.get(1).type()).isEqualTo("ghost");
        }
    }

    @Test
    void clockJumpsForward_dueTimeoutsFireWithinSeconds() {
        MutableClock clock = new MutableClock();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).clock(clock)
                .handler("t", runs::add).build()) {
            Instant deadline = clock.instant().plus(Duration.ofHours(1));
            timer.schedule("t", "hour", new byte[0], deadline);
            timer.schedule("t", "near", new byte[0], clock.instant().plusSeconds(5));
            long t0 = System.nanoTime();
            clock.jump(Duration.ofHours(1).plusSeconds(1));
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 2);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
            assertThat(clock.instant()).isAfter(deadline);
        }
    }

    @Test
    void clockJumpsBack_nothingFiresEarly() throws Exception {
        MutableClock clock = new MutableClock();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).clock(clock)
                .handler("t", t -> {
                    assertThat(clock.instant()).isAfterOrEqualTo(t.deadline());
                    runs.add(t);
                }).build()) {
            Instant deadline = clock.instant().plusMillis(600);
            timer.schedule("t", "k", new byte[0], deadline);
            clock.jump(Duration.ofMinutes(-10));
            Thread.sleep(2500);
            assertThat(runs).isEmpty();
            assertThat(timer.pendingTimeouts()).isEqualTo(1);
            clock.jump(Duration.ofMinutes(10));
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 1);
            assertThat(runs.get(0).attempt()).isEqualTo(1);
        }
    }
}
