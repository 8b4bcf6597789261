package io.tickwheel.bench.workloads;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Histogram;

/**
 * Records lateness as timeouts fire, for scenarios whose timeouts are created on the fly.
 * Each fire passes the deadline it was armed with.
 *
 * <p>One histogram records every fire and is never swapped or reset: an interval is the
 * difference of two copies. HdrHistogram's {@code Recorder} swapped in an empty histogram at
 * {@link #startInterval()}, whose first values took branches the firing threads' compiled code
 * had never taken (a new minimum and maximum, the recorder's phase flip); in the lease scenario
 * that deoptimized the timer thread's whole inlined fire path at the start of the measured window
 * and put its recompilation (C1 then C2, tens of milliseconds of compiler-thread CPU, more for a
 * larger fire path) inside the window.
 *
 * <p>Threading: thread-safe ({@link AtomicHistogram} and adders); {@link #startInterval()} and
 * {@link #summarize} on one caller thread.
 */
public final class LiveLateness {

    private final AtomicHistogram histogram = new AtomicHistogram(Lateness.HIGHEST_NANOS, Lateness.DIGITS);
    private final LongAdder early = new LongAdder();
    /** Early fires before the interval {@link #startInterval()} began; read by the caller's thread only. */
    private long earlyBefore;
    /**
     * A copy of {@code histogram} when the interval began; caller's thread only. Allocated here,
     * not when the interval starts: the scenarios measure the heap retained over their window,
     * and a copy made inside it (about 0.27 MB at this range and precision) would count as the
     * timer's.
     */
    private final Histogram atStart = new Histogram(Lateness.HIGHEST_NANOS, Lateness.DIGITS);
    private boolean intervalStarted;

    /**
     * Records one fire, now.
     *
     * @param deadlineNanos the deadline it was armed with ({@code System.nanoTime()} scale)
     */
    public void fired(final long deadlineNanos) {
        long late = System.nanoTime() - deadlineNanos;
        if (late < 0) {
            early.increment();
        } else {
            histogram.recordValue(Math.min(late, Lateness.HIGHEST_NANOS));
        }
    }

    /**
     * Forgets the fires so far: {@link #summarize} then covers the fires from now on (a fire in
     * flight at this moment may fall on either side).
     */
    public void startInterval() {
        histogram.copyInto(atStart); // a fire recorded meanwhile may be in it or not
        intervalStarted = true;
        earlyBefore = early.sum();
    }

    /**
     * Puts the statistics of every fire so far (since {@link #startInterval()}, if called); call
     * once, at the end.
     *
     * @param m where to put them
     */
    public void summarize(final Metrics m) {
        Histogram h = histogram.copy();
        if (intervalStarted) {
            h.subtract(atStart);
        }
        Lateness.put(m, "", h, early.sum() - earlyBefore, 0);
    }
}
