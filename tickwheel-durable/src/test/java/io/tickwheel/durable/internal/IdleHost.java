package io.tickwheel.durable.internal;

import io.tickwheel.durable.TimerStore;

/**
 * A writer's host for tests that drive a journal by hand: no timer to deliver to, and no roll or
 * compaction after a batch (the test makes its own).
 */
final class IdleHost implements GroupCommitWriter.Host {

    @Override
    public long horizonMillis() {
        return Long.MIN_VALUE;
    }

    @Override
    public TimerStore.Sink sink() {
        return null;
    }

    @Override
    public void afterBatch() {
        // the test rolls and compacts itself
    }
}
