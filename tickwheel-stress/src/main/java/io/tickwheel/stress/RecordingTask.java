package io.tickwheel.stress;

import io.tickwheel.Timeout;
import io.tickwheel.TimerTask;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A task that counts how often the timer ran it and how often it told it about a cancel, so an
 * arbiter can check the exactly-once rule: runs + cancels == 1 for every timeout that ended.
 *
 * <p>Threading: thread-safe (via atomic counters; a broken timer may call back from two threads).
 */
public final class RecordingTask implements TimerTask {

    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger cancels = new AtomicInteger();

    @Override
    public void run(final Timeout timeout) {
        runs.incrementAndGet();
    }

    @Override
    public void cancelled(final Timeout timeout) {
        cancels.incrementAndGet();
    }

    /**
     * Returns how many times {@link #run} was called.
     *
     * @return the run count
     */
    public int runs() {
        return runs.get();
    }

    /**
     * Returns how many times {@link #cancelled} was called.
     *
     * @return the cancel count
     */
    public int cancels() {
        return cancels.get();
    }

    /**
     * Encodes a timeout's final state for a result: 0 pending, 1 expired, 2 cancelled, 3 both
     * (which no correct timer produces).
     *
     * @param timeout the timeout
     * @return the state code
     */
    public static int stateOf(final Timeout timeout) {
        return (timeout.isExpired() ? 1 : 0) + (timeout.isCancelled() ? 2 : 0);
    }
}
