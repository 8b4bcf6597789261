package io.tickwheel.bench.durable;

import io.tickwheel.durable.DurableTimer;
import io.tickwheel.durable.JournalStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * D1: durable schedules per second and acknowledgement latency, with N concurrent callers of the
 * sync API, or with one thread keeping up to a window of async schedules outstanding ({@link #ASYNC_WINDOWS}:
 * a small window shows the latency at a given rate, the large one the throughput limit);
 * fsync on or off. Every schedule has its own key and a deadline an hour away, so nothing fires.
 * Records per force = records written / forces, from the store's counters.
 *
 * <p>Threading: caller threads of its own; results are read after they are joined.
 */
final class AckBench {

    /** Outstanding async schedules: by Little's law, latency is about window / rate. */
    static final int[] ASYNC_WINDOWS = {16, 32, 64, 16_384};

    private AckBench() {
    }

    /** One D1 row. */
    record Result(String mode, boolean fsync, double acksPerSecond, double p50Millis, double p99Millis,
            double maxMillis, double recordsPerForce) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "D1 %-12s fsync %-3s: %,10.0f acks/s, ack p50 %7.2f ms, p99 %7.2f ms, "
                    + "max %7.2f ms, %7.1f records/force", mode, fsync ? "on" : "off", acksPerSecond, p50Millis,
                    p99Millis, maxMillis, recordsPerForce);
        }
    }

    static Result sync(final Path dir, final boolean fsync, final int callers, final long millis) throws Exception {
        try (JournalStore store = JournalStore.builder(dir).fsync(fsync).build();
                DurableTimer timer = DurableTimer.builder(store).build()) {
            Recorder rec = new Recorder(3);
            AtomicLong acks = new AtomicLong();
            Instant far = Instant.now().plusSeconds(3600);
            runFor(millis / 5, callers, timer, far, rec, acks, "warm");
            rec.getIntervalHistogram();
            acks.set(0);
            long f0 = store.forces();
            long r0 = store.recordsWritten();
            long t0 = System.nanoTime();
            runFor(millis, callers, timer, far, rec, acks, "run");
            double seconds = (System.nanoTime() - t0) / 1e9;
            return result("sync x" + callers, fsync, acks.get() / seconds, rec.getIntervalHistogram(),
                    store.recordsWritten() - r0, store.forces() - f0);
        }
    }

    private static void runFor(final long millis, final int callers, final DurableTimer timer, final Instant far,
            final Recorder rec, final AtomicLong acks, final String phase) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000;
        CountDownLatch done = new CountDownLatch(callers);
        byte[] payload = new byte[0];
        for (int c = 0; c < callers; c++) {
            String prefix = phase + c + "-";
            Thread t = new Thread(() -> {
                long n = 0;
                while (System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    timer.schedule("order", prefix + n++, payload, far);
                    rec.recordValue(System.nanoTime() - t0);
                    acks.incrementAndGet();
                }
                done.countDown();
            });
            t.start();
        }
        done.await();
    }

    static Result async(final Path dir, final boolean fsync, final int windowSize, final long millis)
            throws Exception {
        try (JournalStore store = JournalStore.builder(dir).fsync(fsync).build();
                DurableTimer timer = DurableTimer.builder(store).build()) {
            Instant far = Instant.now().plusSeconds(3600);
            Recorder rec = new Recorder(3);
            AtomicLong acks = new AtomicLong();
            asyncFor(millis / 5, windowSize, timer, far, rec, acks, "warm");
            rec.getIntervalHistogram();
            acks.set(0);
            long f0 = store.forces();
            long r0 = store.recordsWritten();
            long t0 = System.nanoTime();
            asyncFor(millis, windowSize, timer, far, rec, acks, "run");
            double seconds = (System.nanoTime() - t0) / 1e9;
            return result("async w" + windowSize, fsync, acks.get() / seconds, rec.getIntervalHistogram(),
                    store.recordsWritten() - r0, store.forces() - f0);
        }
    }

    // Each future is watched by its own callback, which releases the window.
    @SuppressWarnings("FutureReturnValueIgnored")
    private static void asyncFor(final long millis, final int windowSize, final DurableTimer timer, final Instant far,
            final Recorder rec, final AtomicLong acks, final String phase) throws InterruptedException {
        Semaphore window = new Semaphore(windowSize);
        long end = System.nanoTime() + millis * 1_000_000;
        byte[] payload = new byte[0];
        long n = 0;
        while (System.nanoTime() < end) {
            window.acquire();
            long t0 = System.nanoTime();
            timer.scheduleAsync("order", phase + n++, payload, far).whenComplete((t, e) -> {
                rec.recordValue(System.nanoTime() - t0);
                acks.incrementAndGet();
                window.release();
            });
        }
        window.acquire(windowSize);
    }

    private static Result result(final String mode, final boolean fsync, final double rate, final Histogram h,
            final long records, final long forces) {
        return new Result(mode, fsync, rate, h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6,
                h.getMaxValue() / 1e6, forces == 0 ? 0 : (double) records / forces);
    }
}
