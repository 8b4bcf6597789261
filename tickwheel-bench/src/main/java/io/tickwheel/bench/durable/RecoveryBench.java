package io.tickwheel.bench.durable;

import io.tickwheel.durable.DurableTimer;
import io.tickwheel.durable.JournalStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * D2: restart with N pending. The journal holds N timeouts: 1,000 already overdue at restart, the
 * rest spread over the next two hours. Measured: time from {@code build()} to its return (recovery
 * done: every record read, verified and indexed), time to the first fire, heap used after open
 * (after GC, minus the heap before), and disk bytes per pending timeout: the segment files'
 * length, which counts the zeros preallocated ahead of the records in the active segment (at most a
 * chunk, 1 MiB, whatever the pending count; printed apart). The setup journal holds only live
 * records, which is what compaction leaves.
 *
 * <p>Threading: the calling thread; the handler records the first fire from the timer's executor.
 */
final class RecoveryBench {

    private RecoveryBench() {
    }

    /** One D2 row. */
    record Result(long pending, double setupSeconds, double openMillis, double firstFireMillis,
            double heapBytesPerPending, double diskBytesPerPending, long preallocatedBytes) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "D2 %,d pending: open (recovery) %.0f ms, first fire %.0f ms after "
                    + "build(), heap %.1f B/pending, disk %.1f B/pending (%.1f of it the %.2f MiB preallocated "
                    + "ahead of the records; setup %.0f s)", pending, openMillis, firstFireMillis,
                    heapBytesPerPending, diskBytesPerPending, (double) preallocatedBytes / pending,
                    preallocatedBytes / 1048576.0, setupSeconds);
        }
    }

    static Result run(final Path dir, final long n) throws Exception {
        Instant base = Instant.now();
        long s0 = System.nanoTime();
        Setup.write(dir, n, i -> i < 1000 ? base.minusSeconds(1000 - i)
                : base.plusSeconds(600).plusMillis((i * 7_200_000L / n) % 7_200_000L));
        double setup = (System.nanoTime() - s0) / 1e9;
        long heapBefore = usedHeap();
        CountDownLatch first = new CountDownLatch(1);
        AtomicLong firstAt = new AtomicLong();
        long t0 = System.nanoTime();
        JournalStore store = JournalStore.open(dir);
        try (DurableTimer timer = DurableTimer.builder(store).handler("order", t -> {
            if (firstAt.compareAndSet(0, System.nanoTime())) {
                first.countDown();
            }
        }).build()) {
            long opened = System.nanoTime();
            if (!first.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no fire within 60 s");
            }
            long heapAfter = usedHeap();
            long disk = store.diskBytes();
            long preallocated = store.preallocatedBytes();
            if (timer.pendingTimeouts() < n - 1000) {
                throw new IllegalStateException("recovered " + timer.pendingTimeouts() + " of " + n);
            }
            return new Result(n, setup, (opened - t0) / 1e6, (firstAt.get() - t0) / 1e6,
                    (double) (heapAfter - heapBefore) / n, (double) disk / n, preallocated);
        }
    }

    static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
