package io.tickwheel.internal;

import io.tickwheel.Timeout;

/**
 * A {@link ScheduledTask.Host} that only answers {@link #ordinal()}: for tests of a task's order
 * and of the registry, which never arm, dispatch or run the task, so anything else throws.
 *
 * @param ordinal what {@link #ordinal()} answers
 */
record OrderOnlyHost(long ordinal) implements ScheduledTask.Host {

    @Override
    public Timeout newTimeout(final ScheduledTask<?> task, final long nowNanos, final long delayNanos) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void dispatch(final ScheduledTask<?> task, final boolean throwOnReject) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void untrack(final ScheduledTask<?> task) {
        throw new UnsupportedOperationException();
    }
}
