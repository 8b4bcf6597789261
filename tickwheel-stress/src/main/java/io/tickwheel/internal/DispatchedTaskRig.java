package io.tickwheel.internal;

/**
 * An executor whose workers keep the task it dispatches, so that a jcstress actor can run it as a
 * pool thread would, racing another actor's cancel or shutdown.
 *
 * <p>Threading: the task is dispatched while the state object is built (no delay), before any
 * actor runs; {@link #runAsPoolThread} is for one actor.
 */
abstract class DispatchedTaskRig {

    private Runnable dispatched;
    /** The executor under test, on a timer that never fires. */
    final ScheduledExecutorCore core = new ScheduledExecutorCore(new StubTimer(), r -> dispatched = r);

    /**
     * Runs the dispatched task as a pool thread would, then reads and clears its interrupt status.
     *
     * @return 1 if the run left the thread interrupted
     */
    final int runAsPoolThread() {
        dispatched.run();
        return Thread.interrupted() ? 1 : 0;
    }
}
