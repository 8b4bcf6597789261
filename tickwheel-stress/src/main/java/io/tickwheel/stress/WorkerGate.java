package io.tickwheel.stress;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A thread factory for one timer whose worker thread really starts only once both the timer
 * asked for it ({@code Thread.start()}) and an actor {@linkplain #release() released} it.
 *
 * <p>jcstress builds thousands of states before it runs their actors. A timer that is started
 * in a state's constructor would otherwise hold a live, parked thread per state; with the gate
 * a state holds only an unstarted {@code Thread} object, and the thread starts inside an actor.
 * To the timer this is the same as an operating system that schedules a new thread late, which
 * {@code Thread.start()} allows anyway: the timer is {@code STARTED}, its hand-off queue fills,
 * and its worker runs when it runs. Release the gate before calling {@code stop()}: a stop joins
 * the worker thread, and one that never started cannot be joined.
 *
 * <p>Threading: thread-safe (via one atomic word per thread; exactly one caller starts it).
 */
public final class WorkerGate implements ThreadFactory {

    private static final int REQUESTED = 1;
    private static final int RELEASED = 2;

    private volatile GatedThread thread;
    /** Set by the worker thread as it enters the timer's worker loop. */
    private volatile boolean running;

    @Override
    public Thread newThread(final Runnable runnable) {
        if (thread != null) {
            throw new IllegalStateException("a WorkerGate makes one thread");
        }
        GatedThread made = new GatedThread(() -> {
            running = true;
            runnable.run();
        });
        thread = made;
        return made;
    }

    /** Lets the worker thread start: now if the timer already started it, else when it does. */
    public void release() {
        GatedThread made = thread;
        if (made == null) {
            throw new IllegalStateException("the timer has not asked for its thread yet");
        }
        made.open(RELEASED);
    }

    /** Waits until the worker thread has started and is entering the timer's worker loop. */
    public void awaitRunning() {
        int step = 0;
        while (!running) {
            Spin.pause(++step);
        }
    }

    private static final class GatedThread extends Thread {
        private final AtomicInteger gate = new AtomicInteger();

        GatedThread(final Runnable runnable) {
            super(runnable, "tickwheel-stress-worker");
            setDaemon(true);
        }

        // synchronized only to match Thread.start(); the gate's atomic word decides who starts it.
        @Override
        public synchronized void start() {
            open(REQUESTED);
        }

        void open(final int bit) {
            int before = gate.getAndUpdate(bits -> bits | bit);
            int after = before | bit;
            if (after != before && after == (REQUESTED | RELEASED)) {
                super.start();
            }
        }
    }
}
