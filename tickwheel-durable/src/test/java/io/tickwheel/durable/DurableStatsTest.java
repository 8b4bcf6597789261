package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link DurableTimer#stats()} after known workloads on a JournalStore: every count exact. */
class DurableStatsTest {

    private static final int FAR = 20;
    private static final int CANCELLED = 8;
    private static final int DUE = 5;

    @TempDir
    Path dir;

    @Test
    void stats_afterAKnownWorkload_countEveryOutcomeExactly() {
        AtomicInteger flakyRuns = new AtomicInteger();
        AtomicInteger badRuns = new AtomicInteger();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).retry(2, Duration.ofMillis(10))
                .handler("ok", t -> { })
                .handler("flaky", t -> {
                    if (flakyRuns.incrementAndGet() == 1) {
                        throw new IllegalStateException("first run fails on purpose");
                    }
                })
                .handler("bad", t -> {
                    badRuns.incrementAndGet();
                    throw new IllegalStateException("always fails on purpose");
                }).build()) {
            assertThat(timer.stats().scheduled()).isZero();
            assertThat(timer.stats().scheduleLatency().count()).isZero();
            for (int i = 0; i < FAR; i++) {
                timer.schedule("ok", "far-" + i, new byte[0], Duration.ofHours(1));
            }
            for (int i = 0; i < CANCELLED; i++) {
                assertThat(timer.cancel("ok", "far-" + i)).isTrue();
            }
            assertThat(timer.cancel("ok", "never-scheduled")).isFalse();
            for (int i = 0; i < DUE; i++) {
                timer.schedule("ok", "due-" + i, new byte[0], Duration.ZERO);
            }
            timer.schedule("flaky", "f", new byte[0], Duration.ZERO);
            timer.schedule("bad", "b", new byte[0], Duration.ZERO);

            await().atMost(Duration.ofSeconds(30)).until(() -> timer.failed().size() == 1
                    && timer.stats().fired() == DUE + 1 && timer.pendingTimeouts() == FAR - CANCELLED);
            DurableTimerStats stats = timer.stats();
            assertThat(stats.scheduled()).isEqualTo(FAR + DUE + 2);
            assertThat(stats.cancelled()).as("the cancel that found nothing is not counted").isEqualTo(CANCELLED);
            assertThat(stats.fired()).isEqualTo(DUE + 1);
            // retry(2, ...): the flaky handler's first run, and the bad handler's first of two runs
            assertThat(stats.retried()).isEqualTo(2);
            assertThat(stats.failed()).isEqualTo(1);
            assertThat(stats.claimRefused()).isZero();
            assertThat(stats.storeErrors()).isZero();
            assertThat(flakyRuns).hasValue(2);
            assertThat(badRuns).hasValue(2);

            DurableTimerStats.Histogram schedule = stats.scheduleLatency();
            assertThat(schedule.count()).isEqualTo(stats.scheduled());
            assertThat(schedule.sum()).isPositive();
            assertThat(schedule.valueAtPercentile(50)).isPositive().isLessThanOrEqualTo(schedule.valueAtPercentile(99));
            assertThat(schedule.valueAtPercentile(99)).isLessThanOrEqualTo(schedule.max());
            assertThat(schedule.max()).isLessThan(TimeUnit.SECONDS.toNanos(30));
            assertThat(stats.cancelLatency().count()).as("every acknowledged cancel, pending or not")
                    .isEqualTo(CANCELLED + 1);
            assertThat(stats.cancelLatency().max()).isPositive().isLessThan(TimeUnit.SECONDS.toNanos(30));
            assertThat(stats.toString()).contains("scheduled=" + (FAR + DUE + 2), "failed=1", "scheduleLatency=");
        }
    }

    @Test
    void minus_coversTheIntervalOnly_andStatsAreReadableAfterClose() {
        DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).build();
        DurableTimerStats before;
        try (timer) {
            timer.schedule("x", "a", new byte[0], Duration.ofHours(1));
            timer.schedule("x", "b", new byte[0], Duration.ofHours(1));
            before = timer.stats();
            timer.schedule("x", "a", new byte[0], Duration.ofHours(2)); // a replacement counts too
            assertThat(timer.cancel("x", "b")).isTrue();
        }
        DurableTimerStats interval = timer.stats().minus(before);
        assertThat(interval.scheduled()).isEqualTo(1);
        assertThat(interval.cancelled()).isEqualTo(1);
        assertThat(interval.scheduleLatency().count()).isEqualTo(1);
        assertThat(interval.scheduleLatency().max()).isPositive()
                .isLessThanOrEqualTo(timer.stats().scheduleLatency().max());
        assertThat(interval.cancelLatency().count()).isEqualTo(1);
        assertThat(timer.stats().scheduled()).isEqualTo(3);
        assertThatThrownBy(() -> timer.stats().minus(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("earlier");
    }

    @Test
    void claimRefused_countsADueTimeoutCancelledBeforeItsHandlerRan() {
        List<Runnable> queued = new CopyOnWriteArrayList<>();
        AtomicInteger runs = new AtomicInteger();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).executor(queued::add)
                .handler("t", t -> runs.incrementAndGet()).build()) {
            timer.schedule("t", "k", new byte[0], Duration.ZERO);
            await().atMost(Duration.ofSeconds(10)).until(() -> queued.size() == 1);
            assertThat(timer.cancel("t", "k")).isTrue();
            queued.get(0).run();
            assertThat(timer.stats().claimRefused()).isEqualTo(1);
            assertThat(timer.stats().fired()).isZero();
            assertThat(runs).hasValue(0);
        }
    }

    @Test
    void storeErrors_countFailedSchedulesCancelsAndOutcomes_notAsAcknowledged() {
        AtomicInteger disk = new AtomicInteger();
        List<String> fired = new CopyOnWriteArrayList<>();
        JournalStore store = JournalStore.builder(dir)
                .channelFactory((p, o) -> new FaultyChannel(FileChannel.open(p, o), disk)).build();
        Instant far = Instant.now().plusSeconds(3600);
        try (DurableTimer timer = DurableTimer.builder(store).handler("t", t -> {
            fired.add(t.key());
            disk.set(2); // the disk fails between the handler's return and the record of it as done
        }).build()) {
            timer.schedule("t", "kept", new byte[0], far);
            disk.set(2);
            assertThatThrownBy(() -> timer.schedule("t", "lost", new byte[0], far))
                    .isInstanceOf(UncheckedIOException.class);
            assertThatThrownBy(() -> timer.scheduleAsync("t", "lost2", new byte[0], far).join())
                    .isInstanceOf(CompletionException.class).hasCauseInstanceOf(UncheckedIOException.class);
            assertThatThrownBy(() -> timer.cancel("t", "kept")).isInstanceOf(UncheckedIOException.class);
            DurableTimerStats stats = timer.stats();
            assertThat(stats.storeErrors()).isEqualTo(3);
            assertThat(stats.scheduled()).isEqualTo(1);
            assertThat(stats.cancelled()).isZero();
            assertThat(stats.scheduleLatency().count()).isEqualTo(1);
            assertThat(stats.cancelLatency().count()).isZero();

            disk.set(0);
            timer.schedule("t", "fires", new byte[0], Duration.ZERO);
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.stats().storeErrors() > 3);
            disk.set(0); // the outcome is recorded again a second later, and then succeeds
            await().atMost(Duration.ofSeconds(30)).until(() -> timer.pendingTimeouts() == 1);
            assertThat(fired).containsExactly("fires");
            assertThat(timer.stats().fired()).as("the handler ran once; only its record was repeated").isEqualTo(1);
            assertThat(timer.stats().scheduled()).isEqualTo(2);
        }
    }
}
