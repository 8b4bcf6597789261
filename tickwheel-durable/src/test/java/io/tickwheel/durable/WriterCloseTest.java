package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A close that stops waiting for the journal's writer, stuck in a force that hangs: the op being
 * forced is reported exactly as it ends (done and durable, or failed and never durable), what was
 * queued behind it fails and is never written, the directory stays locked until the writer is done
 * (so no new store reads a batch whose fate is not decided yet), and the writer thread then ends.
 * And a close called on the writer thread itself, from a stage chained to a future, which must not
 * wait for itself.
 */
class WriterCloseTest {

    @TempDir
    Path dir;

    private final List<DurableTimeout> runs = new CopyOnWriteArrayList<>();

    @ParameterizedTest(name = "the hung force then fails: {0}")
    @ValueSource(booleans = {true, false})
    void closeGivesUpOnAHungForce_theCancelIsReportedAsItEndsAndTheJournalAgrees(final boolean forceFails)
            throws Exception {
        HangingChannel.Hang hang = new HangingChannel.Hang("tickwheel-journal-writer", forceFails);
        JournalStore store = JournalStore.builder(dir)
                .channelFactory((p, o) -> new HangingChannel(FileChannel.open(p, o), hang))
                .closeWait(Duration.ofMillis(200)).build();
        DurableTimer timer = DurableTimer.builder(store).handler("t", runs::add).build();
        timer.schedule("t", "a", new byte[] {1}, Duration.ofHours(1));
        hang.armed.set(true);
        CompletableFuture<Boolean> cancel = timer.cancelAsync("t", "a");
        assertThat(hang.entered.await(10, TimeUnit.SECONDS)).as("the writer reached the force").isTrue();
        CompletableFuture<DurableTimeout> queued = timer.scheduleAsync("t", "b", new byte[] {2},
                Instant.now().plus(Duration.ofHours(1)));

        long start = System.nanoTime();
        timer.close();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("close returns").isLessThan(Duration.ofSeconds(10));
        assertThat(queued).as("queued behind the hung batch: failed, never written").failsWithin(Duration.ofSeconds(5));
        assertThat(cancel).as("the batch being forced is not decided yet").isNotDone();
        assertThatThrownBy(() -> JournalStore.open(dir)).as("the directory stays locked while the writer is busy")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already open in this JVM");

        hang.release.countDown();
        if (forceFails) {
            assertThat(cancel).failsWithin(Duration.ofSeconds(10));
        } else {
            assertThat(cancel).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
        }
        hang.hung.join(10_000);
        assertThat(hang.hung.isAlive()).as("the writer thread ends").isFalse();
        await().atMost(Duration.ofSeconds(10)).until(store::released);

        try (DurableTimer again = DurableTimer.builder(JournalStore.open(dir)).handler("t", runs::add).build()) {
            assertThat(again.find("t", "a").isPresent()).as("a is pending exactly when its cancel failed")
                    .isEqualTo(forceFails);
            assertThat(again.find("t", "b")).as("the failed schedule never took effect").isEmpty();
        }
        assertThat(runs).isEmpty();
    }

    @Test
    void closeFromAStageOnTheWriterThread_doesNotWaitForItselfAndWritesWhatWasQueuedBefore() throws Exception {
        HangingChannel.Hang hang = new HangingChannel.Hang("tickwheel-journal-writer", false);
        JournalStore store = JournalStore.builder(dir)
                .channelFactory((p, o) -> new HangingChannel(FileChannel.open(p, o), hang))
                .closeWait(Duration.ofSeconds(20)).build();
        DurableTimer timer = DurableTimer.builder(store).handler("t", runs::add).build();
        Instant later = Instant.now().plus(Duration.ofHours(1));
        // The writer is held in the first batch's force until the stage is chained, so that the stage
        // runs on the writer thread as the future completes there.
        hang.armed.set(true);
        CompletableFuture<DurableTimeout> first = timer.scheduleAsync("t", "a", new byte[] {1}, later);
        assertThat(hang.entered.await(10, TimeUnit.SECONDS)).as("the writer reached the force").isTrue();
        AtomicReference<Thread> stageThread = new AtomicReference<>();
        AtomicReference<CompletableFuture<DurableTimeout>> queued = new AtomicReference<>();
        AtomicLong closeNanos = new AtomicLong(-1);
        CompletableFuture<Void> stage = first.thenRun(() -> {
            stageThread.set(Thread.currentThread());
            queued.set(timer.scheduleAsync("t", "b", new byte[] {2}, later));
            long start = System.nanoTime();
            timer.close();
            closeNanos.set(System.nanoTime() - start);
        });
        hang.release.countDown();

        assertThat(stage).succeedsWithin(Duration.ofSeconds(60));
        assertThat(stageThread.get()).as("the stage ran on the writer").isSameAs(hang.hung);
        assertThat(Duration.ofNanos(closeNanos.get())).as("close on the writer does not wait for itself (20 s)")
                .isLessThan(Duration.ofSeconds(5));
        assertThat(queued.get()).as("queued before the close: written").succeedsWithin(Duration.ofSeconds(10));
        hang.hung.join(10_000);
        assertThat(hang.hung.isAlive()).as("the writer thread ends").isFalse();
        await().atMost(Duration.ofSeconds(10)).until(store::released);

        try (DurableTimer again = DurableTimer.builder(JournalStore.open(dir)).handler("t", runs::add).build()) {
            assertThat(again.find("t", "a")).isPresent();
            assertThat(again.find("t", "b")).isPresent();
        }
        assertThat(runs).isEmpty();
    }
}
