package io.tickwheel.internal;

import io.tickwheel.Timeout;

/**
 * A {@link ScheduledTask.Host} for tests of the executor's registry alone: its tasks are never
 * armed, dispatched or run, so everything but {@link #ordinal()} throws.
 *
 * <p>Threading: stateless.
 */
final class StubHost implements ScheduledTask.Host {

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

    @Override
    public long ordinal() {
        return 0;
    }
}
