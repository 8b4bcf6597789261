package io.tickwheel.durable.internal;

import io.tickwheel.internal.HistogramData;
import io.tickwheel.internal.LogHistogram;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What one {@code DurableTimer} counts: acknowledged schedules and cancels, handler outcomes, refused
 * claims and failed store calls, and how long the store took to acknowledge each schedule and cancel.
 *
 * <h2>Who writes what, and memory ordering</h2>
 * <ul>
 *   <li>{@code SCHEDULED}, {@code CANCELLED}, {@code STORE_ERRORS} of schedule and cancel, and the two
 *       latency histograms: the thread that completes the store's future (the store's writer, or the
 *       caller when the future was already complete), inside the stage that completes the future the
 *       caller gets. So a count happens-before {@code schedule}/{@code cancel} returns (future
 *       completion happens-before {@code join} returns), and a {@code stats()} the caller takes
 *       afterwards includes it.</li>
 *   <li>{@code FIRED}, {@code CLAIM_REFUSED}: the executor thread that ran (or would have run) the
 *       handler. {@code RETRIED}, {@code FAILED} and {@code STORE_ERRORS} of outcomes: the thread that
 *       completes the outcome's store future.</li>
 * </ul>
 * Every count is a {@link LongAdder}: an increment is a CAS on one of its cells (volatile mode), so
 * concurrent increments are never lost, and {@link LongAdder#sum()} reads the cells with volatile
 * loads, so a reading includes every increment that happened-before it. A reading is not one atomic
 * cut: counts (and histograms) being incremented while it runs may be in it or not, each on its own.
 * When nothing is in flight, every reading is exact.
 *
 * <p>Threading: thread-safe (lock-free; see above).
 */
public final class DurableStatsRecorder {

    /** The counters, each with a fixed slot in {@link DurableStatsRecorder#counts()}. */
    public enum Counter {
        /** Schedules the store acknowledged. */
        SCHEDULED(0),
        /** Cancels the store acknowledged that found the timeout pending. */
        CANCELLED(1),
        /** Handlers that returned normally. */
        FIRED(2),
        /** Handlers that threw, with the retry recorded by the store. */
        RETRIED(3),
        /** Timeouts moved to the failed set after their last attempt, as recorded by the store. */
        FAILED(4),
        /** Claims the store refused (cancelled, replaced, or owned by another process). */
        CLAIM_REFUSED(5),
        /** Store calls (schedule, cancel, done, retry, fail) that failed. */
        STORE_ERRORS(6);

        private final int slot;

        Counter(final int slot) {
            this.slot = slot;
        }

        /**
         * Returns where the counter is kept; explicit, so reordering the constants cannot move it.
         *
         * @return its index in {@link DurableStatsRecorder#counts()}
         */
        public int slot() {
            return slot;
        }
    }

    private final LongAdder[] counts = new LongAdder[Counter.values().length];
    private final LogHistogram scheduleLatency = new LogHistogram();
    private final LogHistogram cancelLatency = new LogHistogram();

    /** Creates a recorder with every count at zero. */
    public DurableStatsRecorder() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /**
     * Adds one to a counter.
     *
     * @param counter which
     */
    public void increment(final Counter counter) {
        counts[counter.slot].increment();
    }

    /**
     * Records an acknowledged schedule (public for tests of the histogram; callers use watchSchedule).
     *
     * @param latencyNanos from the call to the store's acknowledgement
     */
    public void scheduleAcknowledged(final long latencyNanos) {
        scheduleLatency.recordShared(latencyNanos);
        increment(Counter.SCHEDULED);
    }

    /**
     * Records an acknowledged cancel.
     *
     * @param latencyNanos from the call to the store's acknowledgement
     * @param wasPending   whether the store found the timeout pending (only then is it counted)
     */
    public void cancelAcknowledged(final long latencyNanos, final boolean wasPending) {
        cancelLatency.recordShared(latencyNanos);
        if (wasPending) {
            increment(Counter.CANCELLED);
        }
    }

    /**
     * Times a store's {@code schedule} call and counts its acknowledgement, or its failure.
     *
     * @param call starts the store call
     * @param <T>  what the caller's future holds
     * @return completes as the store's future does, after the count (see the class comment)
     */
    public <T> CompletableFuture<T> watchSchedule(final Supplier<? extends CompletableFuture<? extends T>> call) {
        long startNanos = System.nanoTime();
        return start(call).handle((t, e) -> {
            rethrowCounted(e);
            scheduleAcknowledged(System.nanoTime() - startNanos);
            return t;
        });
    }

    /**
     * Times a store's {@code cancel} call and counts its acknowledgement, or its failure.
     *
     * @param call starts the store call
     * @return completes as the store's future does, after the count (see the class comment)
     */
    public CompletableFuture<Boolean> watchCancel(final Supplier<CompletableFuture<Boolean>> call) {
        long startNanos = System.nanoTime();
        return start(call).handle((wasPending, e) -> {
            rethrowCounted(e);
            cancelAcknowledged(System.nanoTime() - startNanos, wasPending);
            return wasPending;
        });
    }

    private <F> F start(final Supplier<F> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            increment(Counter.STORE_ERRORS);
            throw e;
        }
    }

    /** Counts a failed store future and fails the dependent stage with it, as the JDK would wrap it. */
    private void rethrowCounted(final Throwable e) {
        if (e != null) {
            increment(Counter.STORE_ERRORS);
            throw e instanceof CompletionException ce ? ce : new CompletionException(e);
        }
    }

    /**
     * Reads every counter.
     *
     * @return the counts, indexed by {@link Counter#slot()}; a new array
     */
    public long[] counts() {
        long[] values = new long[counts.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = counts[i].sum();
        }
        return values;
    }

    /**
     * Copies the schedule-latency histogram.
     *
     * @return nanoseconds from each acknowledged schedule call to its acknowledgement
     */
    public HistogramData scheduleLatency() {
        return scheduleLatency.snapshot();
    }

    /**
     * Copies the cancel-latency histogram.
     *
     * @return nanoseconds from each acknowledged cancel call (pending or not) to its acknowledgement
     */
    public HistogramData cancelLatency() {
        return cancelLatency.snapshot();
    }
}
