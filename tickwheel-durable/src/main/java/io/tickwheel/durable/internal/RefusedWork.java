package io.tickwheel.durable.internal;

import java.lang.System.Logger.Level;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * What the wheel refused to hold for a durable timer: a delivered timeout to arm, the clock
 * ticker, a handler's delayed retry (its executor or its store refused). Each piece of work is only
 * in this process's memory (the store marked the timeout delivered and does not deliver it again),
 * so dropping it would strand an acknowledged timeout until a restart. A thread of its own, started
 * on the first refusal and gone once nothing is left, runs each attempt again with backoff from
 * {@value #FIRST_BACKOFF_MILLIS} ms up to a second; an attempt that is refused again comes back
 * through {@link #add}, so the thread never needs the wheel that refused.
 *
 * <p>Threading: {@link #add} and {@link #kick} from any thread; attempts run on the thread alone,
 * one at a time. The {@code running} flag is the only way a thread starts: a refusal queued after
 * the thread found the queue empty either sees the flag cleared and starts a new thread, or is
 * seen by the thread's re-check (the flag is cleared before that check).
 */
public final class RefusedWork {

    private static final long FIRST_BACKOFF_MILLIS = 10;
    private static final long MAX_BACKOFF_MILLIS = 1000;
    private static final System.Logger LOG = System.getLogger(RefusedWork.class.getName());

    private final String threadName;
    /** Starts the retry loop on a new thread and returns it; a seam for the stress tests. */
    private final Function<Runnable, Thread> starter;
    private final Queue<Runnable> attempts = new ConcurrentLinkedQueue<>();
    /** Whether a thread runs (or is being started). */
    private final AtomicBoolean running = new AtomicBoolean();
    /**
     * The kinds of cause logged since the thread last ran dry: each kind is logged once a run, so a
     * refusal that repeats at every tick does not flood the log, and a different failure (the clock
     * throwing while the wheel already refuses) is still told. Cleared when the thread ends.
     */
    private final Set<Class<?>> logged = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private volatile Thread thread;

    /**
     * Creates an idle instance; no thread runs until the first refusal.
     *
     * @param threadName the name of the thread that retries
     */
    public RefusedWork(final String threadName) {
        this(threadName, loop -> {
            Thread t = new Thread(loop, threadName);
            t.setDaemon(true);
            t.start();
            return t;
        });
    }

    /** For tests: {@code starter} starts the loop it is given on a thread of its own and returns that thread. */
    RefusedWork(final String threadName, final Function<Runnable, Thread> starter) {
        this.threadName = threadName;
        this.starter = starter;
    }

    /**
     * Queues an attempt that was refused; it runs again on this instance's thread after a backoff.
     * Does nothing once closed (the work stays in the store and runs after a restart).
     *
     * @param attempt what to run again; if refused again, it calls {@code add} itself
     * @param cause why it was refused (logged if no cause of its class was since the thread last
     *              ran dry), or null not to log
     */
    public void add(final Runnable attempt, final Throwable cause) {
        if (closed) {
            return;
        }
        attempts.add(attempt);
        start(cause);
    }

    /** Starts the thread if work is queued and none runs: a start that failed before is tried again. */
    public void kick() {
        if (!attempts.isEmpty()) {
            start(null);
        }
    }

    /**
     * How many attempts wait; for tests (the unit, stress and jcstress tests).
     *
     * @return the count (a snapshot)
     */
    public int waiting() {
        return attempts.size();
    }

    private void start(final Throwable cause) {
        if (cause != null && !closed && logged.add(cause.getClass())) {
            LOG.log(Level.WARNING, "the wheel or the executor of a durable timer refused work, or its clock "
                    + "threw; it is kept and tried again with backoff on thread " + threadName, cause);
        }
        if (closed || !running.compareAndSet(false, true)) {
            return;
        }
        try {
            thread = starter.apply(this::loop);
        } catch (RuntimeException | Error e) {
            running.set(false);
            LOG.log(Level.ERROR, "cannot start thread " + threadName + "; trying again at the next refusal, "
                    + "delivery or clock tick", e);
        }
    }

    private void loop() {
        try {
            long backoff = FIRST_BACKOFF_MILLIS;
            while (!closed) {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(backoff));
                runRound();
                if (!keepRunning()) {
                    logged.clear(); // at worst, a cause logged just now is logged once more
                    return; // the flag is already clear, or another thread's now
                }
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
            }
        } catch (RuntimeException | Error e) {
            // Only the logging in runOne can get here; the flag is still ours: clear it, so the next
            // add or kick starts a thread for what waits, instead of counting on this dead one.
            running.set(false);
            throw e;
        }
        running.set(false);
    }

    /** Runs each attempt queued before this round once; those refused again wait for the next. */
    void runRound() {
        for (int n = attempts.size(); n > 0 && !closed; n--) {
            Runnable attempt = attempts.poll();
            if (attempt == null) {
                break;
            }
            runOne(attempt);
        }
    }

    /**
     * The thread's decision after a round: go on while work waits, else end. The flag is cleared
     * before the second look, so an attempt queued meanwhile is either seen here (and the thread
     * takes the flag back and goes on) or its {@link #add} sees the flag clear and starts a thread;
     * a CAS that fails means that add did, and this thread ends: never none, never two.
     *
     * @return whether the calling (retry) thread goes on
     */
    boolean keepRunning() {
        if (!attempts.isEmpty()) {
            return true;
        }
        running.set(false);
        return !attempts.isEmpty() && running.compareAndSet(false, true);
    }

    /** Runs one attempt; whatever it throws, it is kept for the next round rather than lost. */
    private void runOne(final Runnable attempt) {
        try {
            attempt.run();
        } catch (RuntimeException | Error e) {
            if (!closed) {
                attempts.add(attempt);
                LOG.log(Level.WARNING, "a retried attempt of a durable timer threw; trying again", e);
            }
        }
    }

    /** Stops retrying; what waits is dropped here (it stays in the store). Idempotent. */
    public void close() {
        closed = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
        attempts.clear();
    }
}
