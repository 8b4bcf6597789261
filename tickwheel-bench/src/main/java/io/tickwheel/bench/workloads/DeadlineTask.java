package io.tickwheel.bench.workloads;

/**
 * A scenario's task: one per arming, so that each fire knows the deadline it was armed with
 * (scenarios re-arm the same key while an earlier arming may be firing).
 *
 * <p>Threading: immutable; runs on whichever thread the timer fires on.
 */
final class DeadlineTask implements Runnable {

    private final LiveLateness lateness;
    private final long deadlineNanos;

    DeadlineTask(final LiveLateness lateness, final long deadlineNanos) {
        this.lateness = lateness;
        this.deadlineNanos = deadlineNanos;
    }

    @Override
    public void run() {
        lateness.fired(deadlineNanos);
    }
}
