package io.tickwheel.bench.workloads;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Records lateness as timeouts fire, for scenarios whose timeouts are created on the fly.
 * Each fire passes the deadline it was armed with.
 *
 * <p>Threading: thread-safe (via HdrHistogram's wait-free {@link Recorder} and adders).
 */
public final class LiveLateness {

    private final Recorder recorder = new Recorder(Lateness.HIGHEST_NANOS, Lateness.DIGITS);
    private final LongAdder early = new LongAdder();
    /** Early fires before the interval {@link #startInterval()} began; read by the caller's thread only. */
    private long earlyBefore;

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
            recorder.recordValue(Math.min(late, Lateness.HIGHEST_NANOS));
        }
    }

    /**
     * Forgets the fires so far: {@link #summarize} then covers the fires from now on (a fire in
     * flight at this moment may fall on either side).
     */
    public void startInterval() {
        recorder.getIntervalHistogram();
        earlyBefore = early.sum();
    }

    /**
     * Puts the statistics of every fire so far (since {@link #startInterval()}, if called); call
     * once, at the end.
     *
     * @param m where to put them
     */
    public void summarize(final Metrics m) {
        Histogram h = recorder.getIntervalHistogram();
        Lateness.put(m, "", h, early.sum() - earlyBefore, 0);
    }
}
