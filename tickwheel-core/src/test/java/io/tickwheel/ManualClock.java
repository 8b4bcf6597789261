package io.tickwheel;

import io.tickwheel.internal.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link Clock} the test moves by hand, for the faults of a time source: it stalls, jumps, goes
 * backwards, or fails on the worker thread. It never moves by itself, so a timeout fires only
 * after the test moves it past the deadline; each move unparks the worker, which otherwise could
 * sleep for as long as the real time it computed from the old reading.
 *
 * <p>Threading: thread-safe (the reading is atomic; the worker and the hook are volatile, set by
 * the test before it relies on them).
 */
final class ManualClock implements Clock {

    private final AtomicLong now;
    /** Readings taken on the worker thread: each is a look at the time by the worker's loop. */
    private final AtomicLong workerReads = new AtomicLong();
    private volatile Thread worker;
    /** Runs on the worker thread before each of its readings; may block or throw. */
    private volatile Runnable onWorkerRead;

    ManualClock(final long start) {
        this.now = new AtomicLong(start);
    }

    @Override
    public long nanoTime() {
        if (Thread.currentThread() == worker) {
            Runnable hook = onWorkerRead;
            if (hook != null) {
                hook.run();
            }
            workerReads.incrementAndGet();
        }
        return now.get();
    }

    /** Tells the clock which thread is the worker, for {@link #workerReads} and waking it. */
    ManualClock attach(final Thread workerThread) {
        this.worker = workerThread;
        return this;
    }

    /** Moves the reading by {@code delta} (negative goes backwards) and wakes the worker to look. */
    void advance(final Duration delta) {
        now.addAndGet(delta.toNanos());
        wakeWorker();
    }

    /** Installs what the worker thread runs before each reading from now on (null for nothing). */
    void onWorkerRead(final Runnable hook) {
        this.onWorkerRead = hook;
        wakeWorker();
    }

    long workerReads() {
        return workerReads.get();
    }

    /**
     * Wakes the worker {@code times} times, each time waiting until it has read the clock again: so
     * the worker has looked at the current reading at least that often, without a sleep.
     */
    void awaitWorkerLooks(final int times) {
        for (int i = 0; i < times; i++) {
            long before = workerReads.get();
            wakeWorker();
            TimerContractSupport.awaitUntil(() -> workerReads.get() > before);
        }
    }

    private void wakeWorker() {
        Thread thread = worker;
        if (thread != null) {
            // A spurious wake-up is always allowed: the worker rereads the clock and parks again.
            LockSupport.unpark(thread);
        }
    }
}
