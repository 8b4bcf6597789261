package io.tickwheel.bench.durable;

import io.tickwheel.durable.DurableTimer;
import io.tickwheel.durable.JournalStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;

/**
 * D3: durable fire from the journal. N timeouts are written with deadlines spread evenly over one
 * window that starts 15 s after the restart; the timer is then rebuilt from the journal and fires
 * them (each fire also writes its done record). Measured: fires per second over the window and the
 * lateness (handler start minus deadline, by the system clock) p50/p99/max.
 *
 * <p>Threading: handlers record on the timer's executor threads (a {@code Recorder} is
 * thread-safe); the calling thread waits.
 */
final class FireBench {

    private FireBench() {
    }

    /** The D3 row. */
    record Result(long n, long windowSeconds, double firesPerSecond, double p50Millis, double p99Millis,
            double maxMillis) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "D3 %,d due over %d s: %,.0f fires/s, lateness p50 %.1f ms, p99 %.1f ms,"
                    + " max %.1f ms", n, windowSeconds, firesPerSecond, p50Millis, p99Millis, maxMillis);
        }
    }

    static Result run(final Path dir, final long n, final long windowSeconds) throws Exception {
        Instant start = Instant.now().plusSeconds(15 + n / 200_000);
        long windowMillis = windowSeconds * 1000;
        Setup.write(dir, n, i -> start.plusMillis(i * windowMillis / n));
        Recorder lateness = new Recorder(3);
        AtomicLong fired = new AtomicLong();
        AtomicLong firstNanos = new AtomicLong();
        AtomicLong lastNanos = new AtomicLong();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).handler("order", t -> {
            long now = System.nanoTime();
            firstNanos.compareAndSet(0, now);
            lastNanos.accumulateAndGet(now, Math::max);
            long late = Duration.between(t.deadline(), Instant.now()).toNanos();
            lateness.recordValue(Math.max(0, late));
            fired.incrementAndGet();
        }).build()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(windowSeconds + 120 + n / 100_000);
            while (fired.get() < n && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            if (fired.get() < n) {
                throw new IllegalStateException("only " + fired.get() + " of " + n + " fired; "
                        + timer.pendingTimeouts() + " pending");
            }
        }
        var h = lateness.getIntervalHistogram();
        double seconds = (lastNanos.get() - firstNanos.get()) / 1e9;
        return new Result(n, windowSeconds, n / seconds, h.getValueAtPercentile(50) / 1e6,
                h.getValueAtPercentile(99) / 1e6, h.getMaxValue() / 1e6);
    }
}
