package io.tickwheel.durable.internal;

import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Feeds the wheel from the journal: once a second (and at once when woken) it takes the pending
 * timeouts whose deadline is within the lookahead, oldest first, reads each one's record back from
 * its segment, and delivers them to the sink in deadline order. Far timeouts stay on disk with only
 * their {@link LiveSet} entry in memory. At most {@code maxDelivered} timeouts are held by the timer
 * at once, so a backlog of millions of overdue timeouts is fed in deadline order as they finish
 * instead of all at once.
 *
 * <p>Threading: one thread of its own; it reads the state and the segments under the store's lock
 * (the {@link JournalCore}) and calls the sink after releasing it.
 */
public final class DueScanner implements Runnable {

    /** How far ahead of the clock timeouts are handed to the wheel. */
    public static final long LOOKAHEAD_MILLIS = 10_000;
    private static final long PERIOD_NANOS = 1_000_000_000L;
    private static final int CHUNK = 16_384;
    private static final System.Logger LOG = System.getLogger(DueScanner.class.getName());

    private final JournalCore core;
    private final SegmentFiles files;
    private final Clock clock;
    private final TimerStore.Sink sink;
    private final int maxDelivered;
    private final Thread thread;
    private final Runnable onExit;
    private volatile boolean stopped;

    /**
     * Creates the scanner; {@link #start} starts it.
     *
     * @param core         the state (also the lock)
     * @param files        the segments
     * @param clock        the timer's clock
     * @param sink         where to deliver
     * @param maxDelivered the most timeouts held by the timer at once
     * @param name         the thread's name
     * @param onExit       run by the thread as it ends (not if it never starts)
     */
    public DueScanner(final JournalCore core, final SegmentFiles files, final Clock clock,
            final TimerStore.Sink sink, final int maxDelivered, final String name, final Runnable onExit) {
        this.onExit = onExit;
        this.core = core;
        this.files = files;
        this.clock = clock;
        this.sink = sink;
        this.maxDelivered = maxDelivered;
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
    }

    /**
     * Starts the scanner thread, once.
     *
     * @param starter starts a thread ({@code Thread::start}; tests inject a failure)
     */
    public void start(final Consumer<Thread> starter) {
        starter.accept(thread);
    }

    @Override
    public void run() {
        try {
            while (!stopped) {
                try {
                    while (!stopped && scanOnce() == CHUNK) {
                        Thread.onSpinWait();
                    }
                } catch (Throwable e) {
                    // Whatever it was (an OutOfMemoryError too), the chunk went back among the
                    // undelivered; a scanner that died here would deliver nothing again in this process.
                    log("journal scan failed; its timeouts stay pending, retrying in a second", e);
                }
                LockSupport.parkNanos(this, PERIOD_NANOS);
            }
        } finally {
            onExit.run();
        }
    }

    /**
     * Delivers one chunk of what is due within the lookahead.
     *
     * @return how many the sink took (a full chunk means "call again"; one it threw on does not count,
     *         so a sink that keeps throwing is retried once a second, not in a busy loop)
     */
    int scanOnce() {
        long horizon = JournalCore.millis(clock.instant()) + LOOKAHEAD_MILLIS;
        List<StoredTimeout> due = new ArrayList<>();
        int[] slots = new int[CHUNK];
        int[] n = {0};
        synchronized (core) {
            LiveSet live = core.live;
            try {
                int cap = (int) Math.min(maxDelivered, (long) live.delivered() + CHUNK);
                live.pollDue(horizon, cap, s -> slots[n[0]++] = s);
                RecordView view = new RecordView();
                for (int i = 0; i < n[0]; i++) {
                    int s = slots[i];
                    try {
                        ByteBuffer rec = files.read(live.location(s), live.length(s));
                        if (RecordCodec.read(rec, 0, view) != RecordCodec.Status.OK) {
                            throw new IOException("record at " + live.location(s) + " no longer verifies");
                        }
                        due.add(RecordCodec.toTimeout(view));
                    } catch (IOException e) {
                        LOG.log(Level.ERROR, "cannot read a due timeout back from the journal; it stays pending", e);
                        live.undeliver(s);
                    }
                }
                due.sort(Comparator.comparing(StoredTimeout::deadline));
            } catch (Throwable e) {
                // Nothing of the chunk reached the sink (an OutOfMemoryError while reading or decoding):
                // left marked delivered, the scanner would skip it and it would never fire in this
                // process, and the delivered count would creep towards maxDelivered.
                for (int i = 0; i < n[0]; i++) {
                    if ((live.flags(slots[i]) & LiveSet.DELIVERED) != 0) {
                        live.undeliver(slots[i]);
                    }
                }
                throw e;
            }
        }
        int taken = 0;
        for (StoredTimeout t : due) {
            taken += SinkCalls.handOver(sink, t, core) ? 1 : 0;
        }
        return taken;
    }

    private static void log(final String message, final Throwable e) {
        QuietLog.log(LOG, Level.ERROR, message, e);
    }

    /** Runs a scan soon (a clock jump, a finished backlog). */
    public void wake() {
        LockSupport.unpark(thread);
    }

    /**
     * Stops the thread and waits for it; an interrupt does not cut the wait short, and stays set
     * ({@link Joins#await}).
     *
     * @param timeoutMillis how long to wait
     */
    public void stop(final long timeoutMillis) {
        stopped = true;
        LockSupport.unpark(thread);
        Joins.await(thread, timeoutMillis);
    }
}
