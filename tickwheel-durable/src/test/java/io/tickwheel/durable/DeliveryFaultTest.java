package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A delivery that fails half-way: the scanner's read of a due record throws an {@code Error}, or the
 * sink throws on a delivery (from the writer, for a timeout due soon, or from the scanner). The slot
 * was already marked delivered, and delivered slots are skipped by the scanner: before the fix the
 * acknowledged timeout stayed pending and never fired in this process. It must be delivered again.
 */
class DeliveryFaultTest {

    private static final String SCANNER = "tickwheel-journal-scanner";

    @TempDir
    Path dir;

    /** A channel whose positional reads throw an OutOfMemoryError on the scanner thread while {@code faults} lasts. */
    private static final class FailingRead extends DelegatingChannel {
        private final AtomicInteger faults;

        FailingRead(final FileChannel delegate, final AtomicInteger faults) {
            super(delegate);
            this.faults = faults;
        }

        @Override
        public int read(final ByteBuffer dst, final long position) throws IOException {
            if (Thread.currentThread().getName().equals(SCANNER) && faults.getAndUpdate(n -> n > 0 ? n - 1 : n) > 0) {
                throw new OutOfMemoryError("injected: Java heap space");
            }
            return super.read(dst, position);
        }
    }

    @Test
    void scannerReadThrowsAnError_theTimeoutStillFires() {
        AtomicInteger faults = new AtomicInteger();
        MutableClock clock = new MutableClock();
        List<DurableTimeout> runs = new CopyOnWriteArrayList<>();
        JournalStore store = JournalStore.builder(dir)
                .channelFactory((p, o) -> new FailingRead(FileChannel.open(p, o), faults)).build();
        try (DurableTimer timer = DurableTimer.builder(store).clock(clock).handler("t", runs::add).build()) {
            // Far beyond the lookahead, so only the scanner delivers it, once the clock gets there.
            timer.schedule("t", "k", new byte[] {7}, Duration.ofHours(1));
            faults.set(1);
            clock.jump(Duration.ofHours(1).plusSeconds(1));
            await("k fires in this process").atMost(Duration.ofSeconds(15)).until(() -> !runs.isEmpty());
            assertThat(faults.get()).as("the scanner's read threw").isZero();
            assertThat(runs).extracting(DurableTimeout::key).containsExactly("k");
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
        }
    }

    @ParameterizedTest(name = "the sink throws on {0}")
    @ValueSource(strings = {"tickwheel-journal-writer", SCANNER})
    void sinkThrowsOnADelivery_theTimeoutIsDeliveredAgain(final String thread) throws Exception {
        AtomicInteger faults = new AtomicInteger(1);
        List<StoredTimeout> delivered = new CopyOnWriteArrayList<>();
        TimerStore.Sink sink = new TimerStore.Sink() {
            @Override
            public void deliver(final StoredTimeout timeout) {
                if (Thread.currentThread().getName().equals(thread) && faults.compareAndSet(1, 0)) {
                    throw new OutOfMemoryError("injected: unable to create native thread");
                }
                delivered.add(timeout);
            }

            @Override
            public void revoke(final String type, final String key, final long version) {
                // nothing held to drop
            }
        };
        MutableClock clock = new MutableClock();
        boolean byScanner = thread.equals(SCANNER);
        try (JournalStore store = JournalStore.open(dir)) {
            store.open(sink, clock);
            // Due soon, the writer delivers it with its batch; due in an hour, the scanner after the jump.
            Instant deadline = clock.instant().plus(byScanner ? Duration.ofHours(1) : Duration.ofSeconds(1));
            store.schedule("t", "k", new byte[0], deadline).get(10, TimeUnit.SECONDS);
            if (byScanner) {
                clock.jump(Duration.ofHours(1));
            }
            await("k is delivered again").atMost(Duration.ofSeconds(10)).until(() -> !delivered.isEmpty());
            assertThat(faults.get()).as("the sink threw on " + thread).isZero();
            assertThat(delivered).extracting(StoredTimeout::key).containsExactly("k");
        }
    }
}
