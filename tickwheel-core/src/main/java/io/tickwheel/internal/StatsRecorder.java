package io.tickwheel.internal;

import io.tickwheel.internal.StatsSnapshot.Counter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What one timer's worker measures: expiries, wake-ups, the lateness of each fire, the time each
 * task ran, tasks that threw or ran slow, and tasks the executor refused. Callers' counts
 * (scheduled, cancelled, rejected) are not kept here: they already exist in the hand-off queue
 * and the cancel counter, so recording adds no write to the schedule path.
 *
 * <h2>Who writes what</h2>
 * <ul>
 *   <li>The lateness histogram, whose count is the expired count, {@code drained} and
 *       {@code wakeups}: the worker alone, each a plain read of its own last value and a release
 *       store (see {@link LogHistogram}); readers load them with acquire.</li>
 *   <li>The task-time histogram: the worker alone when tasks run on it, else the executor's
 *       threads with atomic adds ({@link LogHistogram#recordShared}); fixed at construction.</li>
 *   <li>Task failures, slow tasks and executor rejections: atomic adds, from the worker or the
 *       executor's threads; they are rare, so their cost does not matter.</li>
 * </ul>
 * {@link #snapshot} loads every worker count before the caller-side counts, and the scheduled
 * count last: a timeout is scheduled before it can expire or be cancelled, so a snapshot never
 * shows more expired and cancelled timeouts than scheduled ones, and pending is never negative.
 *
 * <p>Threading: thread-safe, with the writers listed above.
 */
public final class StatsRecorder {

    private static final VarHandle DRAINED;
    private static final VarHandle WAKEUPS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            DRAINED = lookup.findVarHandle(StatsRecorder.class, "drained", long.class);
            WAKEUPS = lookup.findVarHandle(StatsRecorder.class, "wakeups", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Set once the worker thread has its name, before the timer is used; volatile for the JFR thread. */
    private volatile String timerName;
    private final System.Logger logger;
    private final long slowTaskNanos;
    private final boolean tasksOnExecutor;
    private final LogHistogram lateness = new LogHistogram();
    private final LogHistogram taskTime = new LogHistogram();
    private final AtomicLong taskFailures = new AtomicLong();
    private final AtomicLong slowTasks = new AtomicLong();
    private final AtomicLong executorRejections = new AtomicLong();
    /** Timeouts stop()'s final drain cancelled; worker release store, readers acquire. */
    @SuppressWarnings("unused") // accessed through DRAINED
    private long drained;
    /** Worker release store, readers acquire. */
    @SuppressWarnings("unused") // accessed through WAKEUPS
    private long wakeups;

    /**
     * Creates the recorder of one timer.
     *
     * @param timerName names the timer in the slow-task log and in JFR events
     * @param logger the timer's logger
     * @param slowTaskNanos a task running at least this long is slow; 0 or less: never
     * @param tasksOnExecutor whether tasks run on a task executor (several threads record task time)
     */
    public StatsRecorder(final String timerName, final System.Logger logger, final long slowTaskNanos,
            final boolean tasksOnExecutor) {
        this.timerName = timerName;
        this.logger = logger;
        this.slowTaskNanos = slowTaskNanos <= 0 ? Long.MAX_VALUE : slowTaskNanos;
        this.tasksOnExecutor = tasksOnExecutor;
    }

    /**
     * Counts an expiry and its lateness; worker thread only. The lateness histogram is the count:
     * every expiry records one value, so a separate counter would be a second store per fire
     * (about a nanosecond of a burst's 15 to 25) holding the same number.
     *
     * @param latenessNanos fire time minus deadline
     */
    public void expired(final long latenessNanos) {
        lateness.record(latenessNanos);
    }

    /** Counts a timeout that stop()'s final drain cancelled; worker thread only. */
    public void drained() {
        DRAINED.setRelease(this, (long) DRAINED.getOpaque(this) + 1);
    }

    /** Counts a wake-up of the worker from parking; worker thread only. */
    public void wokeUp() {
        WAKEUPS.setRelease(this, (long) WAKEUPS.getOpaque(this) + 1);
    }

    /**
     * Records a task that ran: on the worker thread if tasks run there, else on an executor thread.
     *
     * @param task the task, named in the slow-task log
     * @param nanos how long it ran
     * @param failed whether it threw
     */
    public void taskRan(final Object task, final long nanos, final boolean failed) {
        if (tasksOnExecutor) {
            taskTime.recordShared(nanos);
        } else {
            taskTime.record(nanos);
        }
        if (failed) {
            taskFailures.incrementAndGet();
        }
        if (nanos >= slowTaskNanos) {
            slowTask(task, nanos);
        }
    }

    /** Counts a task that threw, when its time is recorded with its group's; worker thread only. */
    public void taskFailed() {
        taskFailures.incrementAndGet();
    }

    /**
     * Records a group of tasks the worker ran back to back and timed together (see
     * {@code InlineTiming}); worker thread only, and only when tasks run on it.
     *
     * @param tasks the group's tasks, named if the group ran slow
     * @param count how many of {@code tasks} ran
     * @param nanos how long they ran in all
     * @param evenSplit true to record each as taking an equal share, false to record one as
     *     taking all of it and the rest nothing
     */
    public void groupRan(final Object[] tasks, final int count, final long nanos, final boolean evenSplit) {
        if (evenSplit) {
            taskTime.recordEach(nanos, count);
        } else {
            taskTime.record(nanos);
            if (count > 1) {
                taskTime.recordEach(0, count - 1);
            }
        }
        if (nanos >= slowTaskNanos) {
            if (count == 1) {
                slowTask(tasks[0], nanos);
            } else {
                slowGroup(tasks, count, nanos);
            }
        }
    }

    /**
     * Returns the slow-task threshold in force ({@link Long#MAX_VALUE} when the check is off).
     *
     * @return nanoseconds
     */
    long slowTaskNanos() {
        return slowTaskNanos;
    }

    /** Counts an expired task the executor refused; the worker logs it. */
    public void executorRejected() {
        executorRejections.incrementAndGet();
    }

    /**
     * Returns how many expired tasks the executor refused.
     *
     * @return the count
     */
    public long executorRejections() {
        return executorRejections.get();
    }

    /** A task timed on its own that ran slow. */
    private void slowTask(final Object task, final long nanos) {
        String name = TimeoutNode.describe(task);
        reportSlow(name, new StringBuilder(160).append("TimerTask ").append(name).append(" of ").append(timerName)
                .append(" ran for"), nanos);
    }

    /** A slow group: counted as one slow task, with every task that may have been it named. */
    private void slowGroup(final Object[] tasks, final int count, final long nanos) {
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < count; i++) {
            names.append(i == 0 ? "" : i == count - 1 ? " or " : ", ").append(TimeoutNode.describe(tasks[i]));
        }
        reportSlow(names.toString(), new StringBuilder(names.length() + 160).append("One of the TimerTasks ")
                .append(names).append(" of ").append(timerName)
                .append(", run back to back in a burst and timed together, ran for up to"), nanos);
    }

    /** Milliseconds, or microseconds under one: a threshold of 80 us must not read "0 ms". */
    private static StringBuilder appendDuration(final StringBuilder text, final long nanos) {
        return nanos < TimeUnit.MILLISECONDS.toNanos(1)
                ? text.append(TimeUnit.NANOSECONDS.toMicros(nanos)).append(" us")
                : text.append(TimeUnit.NANOSECONDS.toMillis(nanos)).append(" ms");
    }

    /**
     * Counted, logged once (it ran once) and sent to JFR; a failing log backend harms nothing. It
     * runs on the worker, so its first call must not bootstrap anything heavy: the message is
     * built with a StringBuilder, not with {@code +}, whose first use in a class spins up the
     * JDK's string concatenation factory (about 10 ms on a 2-core VM, during which nothing fires;
     * SlowTaskReportTest), and the JFR event is sent only once a recording initialized JFR.
     */
    private void reportSlow(final String taskName, final StringBuilder what, final long nanos) {
        slowTasks.incrementAndGet();
        try {
            appendDuration(what.append(' '), nanos).append(" (slow-task threshold ");
            appendDuration(what, slowTaskNanos).append(')');
            if (!tasksOnExecutor) {
                what.append("; every timeout due meanwhile fired late");
            }
            logger.log(System.Logger.Level.WARNING, what.toString());
        } catch (Throwable ignored) {
            // The count and the JFR event still record it; the worker must not die of a logger.
        }
        JfrSupport.slowTask(timerName, taskName, nanos);
    }

    /**
     * Takes a snapshot; see the class comment for the order of the loads.
     *
     * @param cancelledByCallers cancels counted by the cancelling threads (volatile load)
     * @param scheduled offers into the hand-off queue (volatile load), read last
     * @param rejected refusals by the pending limit
     * @return the snapshot
     */
    public StatsSnapshot snapshot(final LongSupplier cancelledByCallers, final LongSupplier scheduled,
            final long rejected) {
        long[] counters = new long[Counter.values().length];
        HistogramData latenessCopy = lateness.snapshot(); // a worker count: loaded first
        long expiredCount = latenessCopy.count();
        long drainedCount = (long) DRAINED.getAcquire(this);
        counters[Counter.WAKEUPS.slot] = (long) WAKEUPS.getAcquire(this);
        long cancelled = cancelledByCallers.getAsLong() + drainedCount;
        long scheduledCount = scheduled.getAsLong();
        counters[Counter.SCHEDULED.slot] = scheduledCount;
        counters[Counter.EXPIRED.slot] = expiredCount;
        counters[Counter.CANCELLED.slot] = cancelled;
        counters[Counter.REJECTED.slot] = rejected;
        counters[Counter.PENDING.slot] = scheduledCount - expiredCount - cancelled;
        counters[Counter.TASK_FAILURES.slot] = taskFailures.get();
        counters[Counter.EXECUTOR_REJECTIONS.slot] = executorRejections.get();
        counters[Counter.SLOW_TASKS.slot] = slowTasks.get();
        return new StatsSnapshot(counters, latenessCopy, taskTime.snapshot());
    }

    /**
     * Renames the timer in logs and events, once its worker thread is named.
     *
     * @param name the name
     */
    public void named(final String name) {
        this.timerName = name;
    }

    /**
     * Returns the timer's name as JFR events show it.
     *
     * @return the name
     */
    public String timerName() {
        return timerName;
    }
}
