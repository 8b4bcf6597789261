package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableTimerTest {

    @TempDir
    Path dir;

    private final List<DurableTimeout> fired = new CopyOnWriteArrayList<>();
    private final List<Instant> firedAt = new CopyOnWriteArrayList<>();

    private DurableTimer open() {
        return DurableTimer.builder(JournalStore.open(dir)).handler("order", t -> {
            firedAt.add(Instant.now());
            fired.add(t);
        }).build();
    }

    @Test
    void schedule_dueSoon_firesOnceAfterDeadlineWithPayload() {
        try (DurableTimer timer = open()) {
            Instant deadline = Instant.now().plusMillis(300);
            DurableTimeout t = timer.schedule("order", "o-1", "hello".getBytes(StandardCharsets.UTF_8), deadline);
            assertThat(t.attempt()).isEqualTo(1);
            assertThat(timer.find("order", "o-1")).isPresent();
            assertThat(timer.pendingTimeouts()).isEqualTo(1);
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 1);
            assertThat(firedAt.get(0)).isAfterOrEqualTo(deadline);
            assertThat(firedAt.get(0)).isBefore(deadline.plusSeconds(2));
            assertThat(new String(fired.get(0).payload(), StandardCharsets.UTF_8)).isEqualTo("hello");
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
            assertThat(timer.find("order", "o-1")).isEmpty();
        }
        assertThat(fired).hasSize(1);
    }

    @Test
    void cancel_pending_neverFiresAndSecondCancelIsFalse() throws Exception {
        try (DurableTimer timer = open()) {
            timer.schedule("order", "o-2", new byte[0], Duration.ofMillis(300));
            assertThat(timer.cancel("order", "o-2")).isTrue();
            assertThat(timer.cancel("order", "o-2")).isFalse();
            assertThat(timer.cancelAsync("order", "nope").get()).isFalse();
            timer.schedule("order", "marker", new byte[0], Duration.ofMillis(600));
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 1);
            assertThat(fired.get(0).key()).isEqualTo("marker");
            // The handler runs before its done record is written: pending drops to zero just after.
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
        }
    }

    @Test
    void schedule_sameKey_replacesAndOnlyTheNewOneFires() {
        try (DurableTimer timer = open()) {
            timer.schedule("order", "o-3", "old".getBytes(StandardCharsets.UTF_8), Duration.ofMillis(200));
            timer.schedule("order", "o-3", "new".getBytes(StandardCharsets.UTF_8), Duration.ofMillis(700));
            assertThat(timer.pendingTimeouts()).isEqualTo(1);
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 1);
            assertThat(new String(fired.get(0).payload(), StandardCharsets.UTF_8)).isEqualTo("new");
            await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> true);
            assertThat(fired).hasSize(1);
        }
    }

    @Test
    void reopen_pendingSurviveAndOverdueFireInDeadlineOrder() throws Exception {
        Instant base = Instant.now();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).build()) {
            for (int i = 0; i < 50; i++) {
                // scheduled in shuffled order, due within the next second
                int k = (i * 17) % 50;
                timer.scheduleAsync("order", "k" + k, new byte[] {(byte) k}, base.plusMillis(10L * k)).get();
            }
            timer.schedule("order", "far", new byte[0], base.plusSeconds(3600));
            assertThat(timer.pendingTimeouts()).isEqualTo(51);
        }
        Thread.sleep(1200);
        ExecutorService one = Executors.newSingleThreadExecutor();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).executor(one)
                .handler("order", fired::add).build()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 50);
            for (int i = 0; i < 50; i++) {
                assertThat(fired.get(i).key()).isEqualTo("k" + i);
            }
            assertThat(timer.find("order", "far")).isPresent();
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 1);
        } finally {
            one.shutdown();
        }
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).build()) {
            assertThat(timer.pendingTimeouts()).isEqualTo(1);
            assertThat(timer.find("order", "far").orElseThrow().deadline()).isEqualTo(base.plusSeconds(3600));
        }
    }
}
