package io.tickwheel.bench.timers;

/**
 * No timer at all: the empty JVM whose idle CPU the idle workloads subtract. Every call is a
 * no-op and it owns no threads.
 *
 * <p>Threading: immutable.
 */
public final class NoTimer implements BenchTimer {

    @Override
    public Object prepare(final Runnable task) {
        return task;
    }

    @Override
    public Object schedule(final Object prepared, final long delayNanos) {
        return prepared;
    }

    @Override
    public boolean cancel(final Object handle) {
        return false;
    }

    @Override
    public long pending() {
        return -1;
    }

    @Override
    public void stop() {
        // nothing to stop
    }

    @Override
    public String version() {
        return "an empty JVM (no timer)";
    }

    @Override
    public boolean fires() {
        return false;
    }
}
