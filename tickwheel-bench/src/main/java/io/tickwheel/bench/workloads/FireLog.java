package io.tickwheel.bench.workloads;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * Records when each of {@code n} numbered timeouts fired, for workloads that know every
 * deadline in advance. Each timeout gets its own task, made by {@link #task(int)}; a task that
 * runs twice is counted as a duplicate.
 *
 * <p>Threading: any number of firing threads write distinct slots; the count is an atomic whose
 * increment (release) follows the slot write, and the reader's {@link #fired()} (acquire)
 * precedes its reads of the slots.
 */
public final class FireLog {

    private final long[] fireNanos;
    private final AtomicInteger fired = new AtomicInteger();
    private final AtomicInteger duplicates = new AtomicInteger();
    private final CountDownLatch done = new CountDownLatch(1);

    /**
     * Makes a log for {@code n} timeouts.
     *
     * @param n how many
     */
    public FireLog(final int n) {
        fireNanos = new long[n];
    }

    /**
     * Makes the task of timeout {@code i}.
     *
     * @param i the timeout's number
     * @return a task that records when it ran
     */
    public Runnable task(final int i) {
        return () -> record(i);
    }

    private void record(final int i) {
        long now = System.nanoTime();
        if (fireNanos[i] != 0) {
            duplicates.incrementAndGet();
            return;
        }
        fireNanos[i] = now == 0 ? 1 : now;
        if (fired.incrementAndGet() == fireNanos.length) {
            done.countDown();
        }
    }

    /**
     * Returns how many distinct timeouts fired so far.
     *
     * @return the count
     */
    public int fired() {
        return fired.get();
    }

    /**
     * Waits until every timeout fired or a deadline passed.
     *
     * @param untilNanos the deadline ({@code System.nanoTime()} scale)
     * @return whether every timeout fired
     * @throws InterruptedException if interrupted
     */
    public boolean awaitAll(final long untilNanos) throws InterruptedException {
        return done.await(untilNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /**
     * Summarises the lateness against the planned deadlines into {@code m}.
     *
     * @param m where to put the statistics
     * @param deadlines the deadline of each timeout
     */
    public void summarize(final Metrics m, final long[] deadlines) {
        int count = fired();
        Histogram h = Lateness.newHistogram();
        long early = 0;
        long maxEarly = 0;
        long missing = 0;
        for (int i = 0; i < fireNanos.length; i++) {
            long fire = fireNanos[i];
            if (fire == 0) {
                missing++;
                continue;
            }
            long late = fire - deadlines[i];
            if (late < 0) {
                early++;
                maxEarly = Math.max(maxEarly, -late);
            } else {
                h.recordValue(Math.min(late, Lateness.HIGHEST_NANOS));
            }
        }
        m.put("count", fireNanos.length);
        Lateness.put(m, "", h, early, missing);
        m.put("maxEarlyMs", maxEarly / 1e6);
        m.put("duplicates", duplicates.get());
        m.put("firedSeenByCounter", count);
    }
}
