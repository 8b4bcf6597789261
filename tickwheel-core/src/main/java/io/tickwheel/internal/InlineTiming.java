package io.tickwheel.internal;

import java.util.Arrays;

/**
 * Times the tasks the worker runs on its own thread, and dates each fire, at one clock reading
 * per task, or one per group of tasks in a burst.
 *
 * <h2>Why groups</h2>
 * Each reading is a {@code nanoTime} call (20-25 ns on the VMs we measure on), which is a sixth of
 * what the whole engine spends per fire when a million timeouts come due at once. So once a pass
 * of the worker has run {@link #SOLO_RUN} tasks in a row that each took under
 * {@link #TINY_NANOS}, it reads the clock once per {@link #GROUP} tasks for the rest of that pass:
 * a group that stays under {@code TINY_NANOS} per task is recorded as that many tasks sharing
 * its time evenly, and every task in it fires at the group's start time, which understates its
 * lateness by at most the group's few microseconds. A pass that runs fewer tasks than that (every
 * pass outside a burst) times each task exactly. Grouping the rest of a thousand-task pass saves
 * about 15 ns per fire; what recording still costs a burst (2 to 16 % of W6's CPU per fire) is
 * measured in docs/BENCHMARKS.md.
 *
 * <p>A group that ran long (a task in it blocked) is recorded as one task that took all of it and
 * the rest as taking nothing, the likeliest split after a run of tiny tasks, so the histogram's
 * maximum is an upper bound on the slow one; if it reaches the slow-task threshold, the warning
 * names every task of the group as the candidates. The tasks after it in the group fire dated
 * at the group's start, so their lateness is understated by the block (at most seven fires per
 * such block; the ones after the group are dated exactly). The pass then times each task alone
 * again, so a task that blocks on every run is named alone from its next run on.
 *
 * <p>A slow-task threshold under {@code GROUP * TINY_NANOS} turns grouping off: a group of tasks
 * that are each tiny could then reach the threshold together, and be counted as a slow task that
 * none of them was.
 *
 * <p>Threading: worker thread only (its fields are plain).
 */
final class InlineTiming {

    /** Tasks per clock reading in a burst. */
    static final int GROUP = 8;
    /**
     * Tiny tasks timed one by one in a pass before grouping starts: only a burst (over a hundred
     * thousand fires a second at a 1 ms tick) runs that many in one pass, so every other pass is
     * timed exactly.
     */
    static final int SOLO_RUN = 128;
    /** What counts as a tiny task: far below any useful slow-task threshold. */
    static final long TINY_NANOS = 5_000;

    private final Clock clock;
    private final StatsRecorder stats;
    /** Whether a group can stay under the slow-task threshold while every task in it is tiny. */
    private final boolean groups;
    /** The tasks of the open group, kept to name them if it runs slow; cleared when it ends. */
    private final Object[] group = new Object[GROUP];
    private int grouped;
    /** The latest clock reading: when the next task (or group) started, and the next fire time. */
    private long startNanos;
    private int tinyInARow;

    InlineTiming(final Clock clock, final StatsRecorder stats) {
        this.clock = clock;
        this.stats = stats;
        this.groups = stats.slowTaskNanos() >= TINY_NANOS * GROUP;
    }

    /**
     * Starts a pass of the worker: tasks are timed one by one again.
     *
     * @param nowNanos the pass's clock reading
     */
    void passStarted(final long nowNanos) {
        startNanos = nowNanos;
        tinyInARow = 0;
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
        if (!groups || tinyInARow < SOLO_RUN) {
            long end = clock.nanoTime();
            long nanos = end - startNanos;
            startNanos = end;
            stats.taskRan(node.task(), nanos, !completed);
            tinyInARow = nanos < TINY_NANOS ? tinyInARow + 1 : 0;
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

    /** Ends an open group, so that no task's time spills into what the worker does next. */
    void flush() {
        if (grouped > 0) {
            endGroup();
        }
    }

    /**
     * Only a throwing logging backend gets a throwable out of {@code runTask}, and the worker then
     * fails: the tasks of the open group that did run are recorded, and let go of, since the
     * stopped timer keeps this object (and so the group) reachable.
     */
    private void failed(final Throwable t) {
        try {
            flush();
        } catch (Throwable again) {
            t.addSuppressed(again);
        } finally {
            grouped = 0;
            Arrays.fill(group, null);
        }
    }

    private void endGroup() {
        long end = clock.nanoTime();
        long nanos = end - startNanos;
        startNanos = end;
        int count = grouped;
        grouped = 0;
        boolean tiny = nanos < TINY_NANOS * count;
        if (!tiny) {
            tinyInARow = 0;
        }
        try {
            stats.groupRan(group, count, nanos, tiny);
        } finally {
            Arrays.fill(group, 0, count, null); // a task must not stay reachable from here
        }
    }
}
