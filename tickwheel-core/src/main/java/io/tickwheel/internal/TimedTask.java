package io.tickwheel.internal;

/**
 * An expired task on its way to the task executor: runs it there and records how long it ran,
 * so task time, failures and slow tasks are measured where the task runs, not where it was
 * handed over. Costs the executor path nothing extra: it replaces the one object the hand-over
 * allocated anyway.
 *
 * <p>Threading: runs once, on an executor thread; its fields are final and published by the
 * executor's own hand-off.
 */
final class TimedTask implements Runnable {

    private final TimeoutNode node;
    private final StatsRecorder stats;
    private final Clock clock;

    TimedTask(final TimeoutNode node, final StatsRecorder stats, final Clock clock) {
        this.node = node;
        this.stats = stats;
        this.clock = clock;
    }

    @Override
    public void run() {
        long start = clock.nanoTime();
        boolean completed = node.runTask();
        stats.taskRan(node.task(), clock.nanoTime() - start, !completed);
    }

    @Override
    public String toString() {
        // Executors that log a task they refuse or that failed name the user's task, not this wrapper.
        return TimeoutNode.describe(node.task());
    }
}
