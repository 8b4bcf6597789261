package io.tickwheel.stress;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A one-shot meeting point for the two actors of one jcstress state.
 *
 * <p>jcstress runs each actor through a whole stride of states without waiting for the other
 * actor, which is right when both actors cost about the same. Here they often do not: a
 * {@code cancel()} takes tens of nanoseconds, a worker pass or a {@code stop()} that joins a
 * thread takes microseconds. Without a meeting point the cheap actor would finish its stride
 * while the slow one is still on its first state, and the two operations of a state would
 * almost never overlap. Each actor calls {@link #arrive()} right before its racing operation.
 *
 * <p>Threading: thread-safe (via one atomic counter, read with volatile semantics).
 */
public final class Rendezvous {

    private static final int PARTIES = 2;

    private final AtomicInteger arrived = new AtomicInteger();

    /** Announces this actor and waits until the other actor of the same state has arrived. */
    public void arrive() {
        arrived.incrementAndGet();
        int step = 0;
        while (arrived.get() < PARTIES) {
            Spin.pause(++step);
        }
    }
}
