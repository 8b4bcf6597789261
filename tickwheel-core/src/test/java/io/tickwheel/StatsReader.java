package io.tickwheel;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Reads {@code stats()} in a loop while other threads schedule, cancel and stop, and records
 * every snapshot that breaks what a snapshot promises: never more ended than scheduled, pending
 * never negative, counts never going down from one read to the next.
 *
 * <p>Threading: its own thread writes {@link #reads}; {@link #problems} is thread-safe; read both
 * after {@link #finish()}.
 */
final class StatsReader extends Thread {

    final List<String> problems = new CopyOnWriteArrayList<>();
    volatile long reads;
    private final Timer timer;
    private volatile boolean done;

    StatsReader(final Timer timer) {
        super("stats-reader");
        this.timer = timer;
        setDaemon(true);
    }

    static TimerStats stats(final Timer timer) {
        return timer instanceof HashedWheelTimer hashed ? hashed.stats() : ((HierarchicalWheelTimer) timer).stats();
    }

    @Override
    public void run() {
        TimerStats last = stats(timer);
        long count = 0;
        while (!done && problems.size() < 10) {
            TimerStats now = stats(timer);
            count++;
            if (now.expired() + now.cancelled() > now.scheduled() || now.pending() < 0) {
                problems.add("more ended than scheduled: " + now);
            }
            if (now.scheduled() < last.scheduled() || now.expired() < last.expired()
                    || now.cancelled() < last.cancelled()) {
                problems.add("a count went down: " + last + " then " + now);
            }
            last = now;
            java.util.concurrent.locks.LockSupport.parkNanos(20_000);
        }
        reads = count;
    }

    void finish() throws InterruptedException {
        done = true;
        join();
    }
}
