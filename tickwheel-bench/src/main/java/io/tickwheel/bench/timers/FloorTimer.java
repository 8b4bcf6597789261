package io.tickwheel.bench.timers;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The floor: the least a {@code newTimeout} that never fires early can cost in Java. It reads
 * {@code System.nanoTime()} once, allocates one small node (task, deadline, state, link: 32
 * bytes with compressed references) and offers it to a hand-written lock-free MPSC queue
 * (Vyukov's intrusive linked queue: one atomic exchange of the tail, then a release store of the
 * old tail's link). {@code cancel} is one CAS of the node's state, the least a cancel that must
 * race with expiry can cost.
 *
 * <p>Nothing consumes the queue and nothing fires: the floor prices the caller's side only, so
 * its heap keeps every node ever offered.
 *
 * <p>Threading: thread-safe (via an atomic exchange on the tail and a CAS on each node's state).
 */
public final class FloorTimer implements BenchTimer {

    private static final VarHandle TAIL;
    private static final VarHandle NEXT;
    private static final VarHandle STATE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(FloorTimer.class, "tail", Node.class);
            NEXT = lookup.findVarHandle(Node.class, "next", Node.class);
            STATE = lookup.findVarHandle(Node.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The first node; it keeps every offered node reachable, as a real timer would. */
    private final Node head = new Node(null, 0);

    /** Written by any producer with getAndSet (volatile) through TAIL; the last node offered. */
    private volatile Node tail = head;

    @Override
    public Object prepare(final Runnable task) {
        return task;
    }

    @Override
    public Object schedule(final Object prepared, final long delayNanos) {
        Node node = new Node(prepared, System.nanoTime() + delayNanos);
        Node previous = (Node) TAIL.getAndSet(this, node);
        NEXT.setRelease(previous, node);
        return node;
    }

    @Override
    public boolean cancel(final Object handle) {
        return STATE.compareAndSet((Node) handle, 0, 1);
    }

    @Override
    public long pending() {
        return -1;
    }

    @Override
    public void stop() {
        // no thread to stop
    }

    @Override
    public String version() {
        return "nanoTime + 1 allocation + MPSC offer (intrusive Vyukov queue)";
    }

    @Override
    public boolean fires() {
        return false;
    }

    @Override
    public String toString() {
        return "floor, last offered: " + tail;
    }

    /** One queued timeout. */
    static final class Node {
        final Object task;
        final long deadlineNanos;
        /** 0 pending, 1 cancelled; written by CAS through STATE from any thread. */
        private volatile int state;
        /** Written once, through NEXT, by the producer that linked the next node (release). */
        private volatile Node next;

        Node(final Object task, final long deadlineNanos) {
            this.task = task;
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        public String toString() {
            return "floor node, deadline " + deadlineNanos + " ns, task " + task
                    + (state == 0 ? ", pending" : ", cancelled") + (next == null ? ", last" : "");
        }
    }
}
