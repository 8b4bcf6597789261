package io.tickwheel.internal;

/**
 * A timer whose statistics can be read: what the JFR statistics event polls.
 *
 * <p>Threading: implementations are thread-safe.
 */
public interface StatsSource {

    /**
     * Takes a snapshot of the timer's counters and histograms.
     *
     * @return the snapshot
     */
    StatsSnapshot stats();

    /**
     * Names the timer in events and logs.
     *
     * @return the name
     */
    String statsName();
}
