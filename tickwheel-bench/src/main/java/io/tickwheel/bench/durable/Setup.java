package io.tickwheel.bench.durable;

import io.tickwheel.durable.JournalStore;
import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Semaphore;
import java.util.function.LongFunction;

/**
 * Writes a journal of {@code n} pending timeouts straight through a {@link JournalStore} (no timer,
 * nothing fires), fsync off to save time; keys {@code order-%09d} (15 bytes), type {@code order},
 * empty payload.
 *
 * <p>Threading: the calling thread schedules; the store's writer completes.
 */
final class Setup {

    private Setup() {
    }

    @SuppressWarnings("FutureReturnValueIgnored")
    static void write(final Path dir, final long n, final LongFunction<Instant> deadline) throws Exception {
        try (JournalStore store = JournalStore.builder(dir).fsync(false).build()) {
            store.open(new NoSink(), Clock.systemUTC());
            Semaphore window = new Semaphore(65_536);
            byte[] payload = new byte[0];
            for (long i = 0; i < n; i++) {
                window.acquire();
                store.schedule("order", key(i), payload, deadline.apply(i)).whenComplete((t, e) -> window.release());
            }
            window.acquire(65_536);
        }
    }

    static String key(final long i) {
        return String.format("order-%09d", i);
    }

    /** Delivers nowhere: the setup only writes. */
    static final class NoSink implements TimerStore.Sink {
        @Override
        public void deliver(final StoredTimeout timeout) {
            // nothing fires during setup
        }

        @Override
        public void revoke(final String type, final String key, final long version) {
            // nothing is held
        }
    }
}
