package io.tickwheel.internal;

import java.util.Arrays;

/**
 * Times the tasks the worker runs on its own thread, and dates each fire, at one clock reading
 * per task, or one per group of tasks once tiny tasks come in a steady run.
 *
 * <h2>Why groups</h2>
 * Each reading is a {@code nanoTime} call (20-29 ns on the VMs we measure on), which is a sixth of
 * what the whole engine spends per fire when a million timeouts come due at once. So once the
 * worker has run {@link #SOLO_RUN} tasks in a row that each took under {@link #TINY_NANOS} (in
 * any number of passes; a task or group that is not tiny starts the count again), it reads the
 * clock once per {@link #GROUP} tasks of a pass: a group that stays under {@code TINY_NANOS} per
 * task is recorded as that many tasks sharing its time evenly, and every task in it fires at the
 * group's start time, which understates its lateness by at most the group's few microseconds.
 * Grouping saves about 25 ns per fire of a pass of many tasks: a burst, or a hundred lease
 * renewals due in one tick; what recording still costs is measured in docs/BENCHMARKS.md.
 *
 * <h2>What a time includes</h2>
 * A task timed alone runs from the previous reading (the previous task's end, or the pass's
 * start) to its own end, so the wheel's work just before it is in its time: finding it, and
 * cascading a higher level's bucket into the wheel's lowest level when that bucket's time has
 * come. A group runs from its start to the reading that ends it, so the wheel's work between and
 * after its tasks is in it too, up to the end of the wheel's advance. The worker's other bulk work
 * is kept out: a group never spans two passes (the pass's end closes it), the clock is read again
 * after a transfer that placed nodes, after a purge and after a slow-task report, and a task the
 * transfer expires is timed alone, its time ended before the transfer places anything more. Two
 * things are not: cancelled nodes the transfer drops from the queue before a due one (no
 * placement, so no new reading) are in that due task's time and understate its lateness (dropping
 * one costs a poll and a CAS), and a task that throws has the logging of its exception in its own
 * time (that log call is part of running it), never in the next task's.
 *
 * <p>A group that ran long (a task in it blocked) is recorded as one task that took all of it and
 * the rest as taking nothing, the likeliest split after a run of tiny tasks, so the histogram's
 * maximum is an upper bound on the slow one; if it reaches the slow-task threshold, the warning
 * names every task of the group as the candidates. The tasks after it in the group fire dated
 * at the group's start, so their lateness is understated by the block (at most
 * {@code GROUP - 1} fires per such block; the ones after the group are dated exactly). The
 * worker then times each task alone again, so a task that blocks on every run is named alone
 * from its next run on.
 *
 * <p>A slow-task threshold under {@code GROUP * TINY_NANOS} turns grouping off: a group of tasks
 * that are each tiny could then reach the threshold together, and be counted as a slow task that
 * none of them was.
 *
 * <p>Threading: worker thread only (its fields are plain).
 */
final class InlineTiming {

    /** Tasks per clock reading once grouping has started. */
    static final int GROUP = 16;
    /**
     * Tiny tasks timed one by one, in a row, before grouping starts, and again after any task or
     * group that was not tiny.
     */
    static final int SOLO_RUN = 128;
    /** What counts as a tiny task: far below any useful slow-task threshold. */
    static final long TINY_NANOS = 5_000;

    private final Clock clock;
    private final StatsRecorder stats;
    /**
     * What counts as tiny here: {@link #TINY_NANOS}, or 0 (nothing, so grouping never starts)
     * when a group of tiny tasks could reach the slow-task threshold.
     */
    private final long tinyNanos;
    /** The slow-task threshold, at or past which a recorded time is logged. */
    private final long slowTaskNanos;
    /**
     * The tasks of the open group, kept to name them if it runs slow. A group's slots are
     * overwritten by the next group's and cleared when the pass ends, not when each group ends:
     * a task stays reachable from here until its pass is over, never while the worker parks.
     */
    private final Object[] group = new Object[GROUP];
    private int grouped;
    /** Whether {@link #group} may hold tasks since it was last cleared. */
    private boolean holding;
    /** The latest clock reading: when the next task (or group) started, and the next fire time. */
    private long startNanos;
    private int tinyInARow;

    InlineTiming(final Clock clock, final StatsRecorder stats) {
        this.clock = clock;
        this.stats = stats;
        this.slowTaskNanos = stats.slowTaskNanos();
        this.tinyNanos = slowTaskNanos >= TINY_NANOS * GROUP ? TINY_NANOS : 0;
    }

    /**
     * Starts a pass of the worker. The run of tiny tasks goes on from the previous pass: a
     * hundred tiny renewals due every tick are as cheap to group as a burst of a thousand.
     *
     * @param nowNanos the pass's clock reading
     */
    void passStarted(final long nowNanos) {
        startNanos = nowNanos;
    }

    /**
     * Ends an open group and starts the next task at a fresh reading, after the worker did other
     * work between tasks (placing a backlog, a purge) that is neither a task's time nor before the
     * next fire.
     */
    void resync() {
        flush();
        startNanos = clock.nanoTime();
    }

    /**
     * Returns when the next task fires: the latest reading.
     *
     * @return a clock reading
     */
    long fireNanos() {
        return startNanos;
    }

    /**
     * Runs an expired node's task here and times it.
     *
     * @param node a node this thread expired
     */
    void run(final TimeoutNode node) {
        boolean completed;
        try {
            completed = node.runTask();
        } catch (Throwable t) {
            failed(t);
            throw t;
        }
        if (tinyInARow < SOLO_RUN) {
            long end = clock.nanoTime();
            long nanos = end - startNanos;
            startNanos = end;
            stats.taskRan(node.task(), nanos, !completed);
            afterReport(nanos);
            tinyInARow = nanos < tinyNanos ? tinyInARow + 1 : 0;
            return;
        }
        if (!completed) {
            stats.taskFailed();
        }
        group[grouped++] = node.task();
        if (grouped == GROUP) {
            endGroup();
        }
    }

    /**
     * Ends an open group, so that no task's time spills into what the worker does next, and lets
     * go of the tasks the groups held: the worker calls this at the end of each pass and after
     * each task the transfer expires, and {@link #resync()} calls it.
     */
    void flush() {
        if (grouped > 0) {
            endGroup();
        }
        if (holding) {
            holding = false;
            Arrays.fill(group, null); // a task must not stay reachable from a parked worker
        }
    }

    /**
     * Records an open group and lets go of every task the groups hold, whatever happens: the
     * worker failed outside a task, and its stopped timer keeps this object reachable.
     */
    void release() {
        recordAndLetGo(null);
    }

    /**
     * Only a throwing logging backend gets a throwable out of {@code runTask}, and the worker then
     * fails: the tasks of the open group that did run are recorded, and let go of, since the
     * stopped timer keeps this object (and so the group) reachable.
     */
    private void failed(final Throwable t) {
        recordAndLetGo(t);
    }

    /**
     * Ends an open group and clears the slots, for a worker that is failing: its final drain must
     * run, so a second failure here only goes on record as suppressed by the first, if known.
     */
    private void recordAndLetGo(final Throwable cause) {
        try {
            if (grouped > 0) {
                endGroup();
            }
        } catch (Throwable again) {
            if (cause != null) {
                cause.addSuppressed(again);
            }
        } finally {
            grouped = 0;
            holding = false;
            Arrays.fill(group, null);
        }
    }

    private void endGroup() {
        long end = clock.nanoTime();
        long nanos = end - startNanos;
        startNanos = end;
        int count = grouped;
        grouped = 0;
        holding = true;
        boolean tiny = nanos < TINY_NANOS * count;
        if (!tiny) {
            tinyInARow = 0;
        }
        // If this throws, the worker fails and its release() clears the slots.
        stats.groupRan(group, count, nanos, tiny);
        afterReport(nanos);
    }

    /**
     * Starts the next task at a fresh reading if the one just recorded was reported slow: the
     * report runs the logging backend, which can take as long as a slow task (a blocking handler,
     * or the first log call's set-up of JUL and the locale). Counted into the next task, that
     * time made it slow too, and its report the one after it, so one slow task became a stream
     * of false reports that kept the worker from firing anything else.
     */
    private void afterReport(final long nanos) {
        if (nanos >= slowTaskNanos) {
            startNanos = clock.nanoTime();
        }
    }
}
