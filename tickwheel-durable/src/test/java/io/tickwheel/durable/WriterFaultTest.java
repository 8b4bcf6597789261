package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Throwables on the journal's writer thread that are not a failing disk's {@code IOException}: the
 * user's clock throwing, an {@code Error} while the writer rolls to a new segment, and a failed
 * batch whose cut-back is still pending when the store closes. The writer must survive each, every
 * future must complete, and a failed op must never reappear after a reopen. Each test failed on the
 * code before the fix (found by a hostile review, 2026-11-28: R1, R4, R3).
 */
class WriterFaultTest {

    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String WRITER = "tickwheel-journal-writer";

    @TempDir
    Path dir;

    private final Set<String> fired = ConcurrentHashMap.newKeySet();

    /** A system clock that throws once on the journal's writer thread when armed. */
    private static final class ThrowOnceOnWriter extends Clock {
        final AtomicBoolean armed = new AtomicBoolean();

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(final ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            if (Thread.currentThread().getName().equals(WRITER) && armed.getAndSet(false)) {
                throw new DateTimeException("injected: the clock failed once");
            }
            return Instant.now();
        }
    }

    /**
     * R1: before the fix the writer read the clock after the force, outside any catch; it died, the
     * batch's future never completed and every later call failed with "the journal is closed". Now
     * the clock is read before anything is written: the batch fails with the clock's exception,
     * nothing of it is applied or stored, the timeout it tried to replace keeps firing, and the
     * writer goes on.
     */
    @Test
    void clockThrowsOnTheWriter_batchFailsWithIt_writerGoesOn_nothingOfItStored() throws Exception {
        ThrowOnceOnWriter clock = new ThrowOnceOnWriter();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).clock(clock)
                .handler("t", t -> fired.add(t.key())).build()) {
            timer.schedule("t", "kept", new byte[0], FAR);
            timer.schedule("t", "fires", new byte[0], Duration.ofMillis(1500));
            clock.armed.set(true);
            // Replaces "fires" (dooming its current incarnation while the batch is decided): the doom
            // must be lifted when the batch fails, or "fires" never fires.
            CompletableFuture<DurableTimeout> failed = timer.scheduleAsync("t", "fires", new byte[0], FAR);
            assertThat(failed).failsWithin(WAIT).withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(DateTimeException.class);
            assertThat(clock.armed).as("the clock was read, and threw, on the writer").isFalse();
            CompletableFuture<DurableTimeout> later = timer.scheduleAsync("t", "after", new byte[0], FAR);
            assertThat(later).as("the writer survived").succeedsWithin(WAIT);
            assertThat(timer.cancelAsync("t", "kept")).succeedsWithin(WAIT).isEqualTo(true);
            await().atMost(WAIT).until(() -> fired.contains("fires"));
            assertThat(timer.pendingTimeouts()).isEqualTo(1);
        }
        try (JournalStore again = JournalStore.builder(dir).build()) {
            again.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            assertThat(again.find("t", "after")).isPresent();
            assertThat(again.find("t", "kept")).as("cancelled after the fault").isEmpty();
            assertThat(again.find("t", "fires")).as("fired; the failed replacement was never stored").isEmpty();
            assertThat(again.pendingTimeouts()).isEqualTo(1);
        }
    }

    /**
     * R4: before the fix an Error while the writer opened the next segment (here the channel factory
     * throws OutOfMemoryError once, as {@code new Thread().start()} or a channel open can) escaped the
     * writer's catch of RuntimeException and killed it: every later schedule failed. Now the roll is
     * tried again after the next batch.
     */
    @Test
    void errorWhileRolling_writerGoesOn_rollsLater_nothingLost() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        JournalStore store = JournalStore.builder(dir).segments(4096, Long.MAX_VALUE).channelFactory((p, o) -> {
            if (p.getFileName().toString().equals("00000000000000000002.seg") && failOnce.getAndSet(false)) {
                throw new OutOfMemoryError("injected: an Error while the writer rolls");
            }
            return FileChannel.open(p, o);
        }).build();
        try (DurableTimer timer = DurableTimer.builder(store).handler("t", t -> fired.add(t.key())).build()) {
            for (int i = 0; i < 100; i++) {
                assertThat(timer.scheduleAsync("t", "k" + i, new byte[100], FAR)).as("schedule " + i)
                        .succeedsWithin(WAIT);
            }
            assertThat(failOnce).as("the Error was thrown").isFalse();
            assertThat(JournalSeams.maintenanceCounts(store)[0]).as("rolled after the Error").isPositive();
            assertThat(timer.pendingTimeouts()).isEqualTo(100);
        }
        try (JournalStore again = JournalStore.builder(dir).build()) {
            again.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            assertThat(again.pendingTimeouts()).isEqualTo(100);
            assertThat(again.find("t", "k99")).isPresent();
        }
    }

    /**
     * R3: a batch whose force failed and whose cut-back failed too left its records in the segment,
     * to be cut "before the next batch"; a clean close with no next batch never cut them, and the
     * reopen brought the failed op back: a schedule whose caller got an exception became pending
     * (op 0), a failed cancel took effect (op 1). Now the close cuts them once the disk works again.
     *
     * @param op 0: a failed schedule; 1: a failed cancel
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void failedBatchWhoseCutBackFailed_cleanCloseCutsIt_neverReappears(final int op) throws Exception {
        AtomicInteger mode = new AtomicInteger();
        JournalStore s = JournalStore.builder(dir)
                .channelFactory((p, o) -> new FaultyChannel(FileChannel.open(p, o), mode)).build();
        try {
            s.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            s.schedule("t", "kept", new byte[] {1}, FAR).join();
            mode.set(-4); // the force fails, and then neither zeros nor a truncation land
            CompletableFuture<?> failed = op == 0 ? s.schedule("t", "lost", new byte[] {2}, FAR)
                    : s.cancel("t", "kept");
            assertThatThrownBy(() -> failed.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(UncheckedIOException.class);
            assertThat(mode.get()).as("the cut-back failed too").isEqualTo(3);
            assertThat(s.find("t", "lost")).isEmpty();
            assertThat(s.find("t", "kept")).isPresent();
            mode.set(0); // the disk works again; the store is closed cleanly, with no batch after
        } finally {
            s.close();
        }
        try (JournalStore again = JournalStore.builder(dir).build()) {
            again.open(new DurableBadInputTest.RecoveryTestSink(), Clock.systemUTC());
            assertThat(again.find("t", "lost")).as("a schedule that failed").isEmpty();
            assertThat(again.find("t", "kept")).as("a cancel that failed").isPresent();
            assertThat(again.pendingTimeouts()).isEqualTo(1);
            again.schedule("t", "next", new byte[0], FAR).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }
}
