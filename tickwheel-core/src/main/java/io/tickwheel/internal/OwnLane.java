package io.tickwheel.internal;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The timeouts the worker thread schedules itself, from the tasks it runs: a heartbeat, a lease
 * renewal or a retry that re-arms itself. They wait here, in a plain array, until the worker
 * links them into its wheel at the end of the pass that scheduled them, instead of going
 * through a lane built for other threads: a CAS to claim a slot, the wake-up handshake, and a
 * transfer that polls them back out, all to hand a node from the worker to itself.
 *
 * <p>Why not link them at once: the task runs from inside {@link TimingWheel#advance}, whose
 * bucket being drained must not grow under it (with one bucket per wheel, the next tick's node
 * would land in the very array being walked).
 *
 * <p>Counting: {@link #producedCount()} is part of the timer's "scheduled" count (see
 * {@link HandOff}'s "Counting without a shared counter"). The worker stores it (release) just
 * before the node goes into the array, with no call after it (so a StackOverflowError cannot
 * leave a node stored but not counted), and before the node is returned to the task, so a thread that sees
 * the timeout retired or cancelled sees it scheduled as well: the retire is the worker's own
 * later release store, and a cancel needs the node, which the task can only have passed on
 * after that store.
 *
 * <p>Threading: worker thread only, except {@link #producedCount()}: single writer (the worker),
 * any reader (acquire).
 */
final class OwnLane {

    private static final int INITIAL_CAPACITY = 16;
    /** A burst (a task that scheduled a million) grows the array; past this it is let go once empty. */
    private static final int KEPT_CAPACITY = 1024;
    /**
     * The most one link takes before the wheel advances again, as for a transfer: a task that
     * schedules a million from the worker must not hold back every other due timeout for the tens
     * of milliseconds linking them all takes.
     */
    static final int LINK_BATCH = 1 << 16; // HandOff.TRANSFER_BATCH, named here only: the engine sits above
    private static final int PRODUCED = 0;

    /** Offered and not yet linked, in order, from {@code head} to {@code count}; null before head. */
    private TimeoutNode[] nodes = new TimeoutNode[INITIAL_CAPACITY];
    /** The first node not yet linked: a link past a batch moves it instead of shifting the rest. */
    private int head;
    private int count;
    /** Cell: every node ever offered; worker release, readers acquire. */
    private final PaddedLongs produced = new PaddedLongs(1);

    /**
     * Appends {@code node}. If growing the array or counting throws (an {@link OutOfMemoryError}, a
     * {@link StackOverflowError}), nothing was stored or counted, and the schedule throws with it.
     *
     * @param node a new pending node, returned to its caller only after this
     */
    void offer(final TimeoutNode node) {
        if (count == nodes.length) {
            makeRoom();
        }
        TimeoutNode[] into = nodes;
        int at = count;
        // Release: pairs with producedCount()'s acquire (see the class comment). Counted before the
        // store, with no call after it: an Error here leaves nothing stored or counted.
        produced.setRelease(PRODUCED, produced.getPlain(PRODUCED) + 1);
        into[at] = node;
        count = at + 1;
    }

    /**
     * Returns how many nodes were ever offered here. Any thread.
     *
     * @return the count
     */
    long producedCount() {
        return produced.getAcquire(PRODUCED);
    }

    /**
     * Moves the nodes not yet linked to the array's start if that frees at least half of it, else
     * doubles it. Moving only then keeps a burst linked batch by batch linear in its size.
     */
    private void makeRoom() {
        int left = count - head;
        if (head >= nodes.length / 2) {
            System.arraycopy(nodes, head, nodes, 0, left);
            Arrays.fill(nodes, left, count, null);
        } else {
            nodes = Arrays.copyOfRange(nodes, head, head + nodes.length * 2);
        }
        head = 0;
        count = left;
    }

    /** Whether nodes wait to be linked; the worker must not park while they do. */
    boolean isEmpty() {
        return head == count;
    }

    /**
     * Links the nodes offered so far, up to {@link #LINK_BATCH} of them, into {@code wheel},
     * dropping cancelled ones and giving {@code due} the ones whose tick the wheel has passed.
     * Nodes that the tasks run by {@code due} offer meanwhile, and those past the batch, stay for
     * the next call (the worker does not park while any do), so a task that re-arms itself with
     * no delay cannot keep this call going. If anything here throws, every node not yet taken is
     * still in the array for {@link #drainTo}.
     *
     * @param wheel the worker's wheel
     * @param due expires a node that is already due
     * @return how many cancelled nodes were dropped
     */
    long linkInto(final TimingWheel wheel, final Consumer<TimeoutNode> due) {
        int batch = Math.min(count - head, LINK_BATCH);
        long dropped = 0;
        for (int taken = 0; taken < batch; taken++) {
            // Through the fields each time: a task run by due may have offered more, and room for
            // them may have moved the nodes not yet taken (head with them).
            TimeoutNode node = nodes[head];
            nodes[head] = null;
            head++;
            if (node.isCancelled()) {
                dropped++;
            } else if (!wheel.addUnlessDue(node)) {
                due.accept(node);
            }
        }
        if (head == count) {
            head = 0;
            count = 0;
            if (nodes.length > KEPT_CAPACITY) {
                nodes = new TimeoutNode[INITIAL_CAPACITY];
            }
        }
        return dropped;
    }

    /** The array's length; for tests. */
    int capacity() {
        return nodes.length;
    }

    /**
     * Empties the lane for the final drain, giving {@code sink} every node it still holds.
     *
     * @param sink receives each node not yet linked
     */
    void drainTo(final Consumer<TimeoutNode> sink) {
        TimeoutNode[] held = nodes;
        int start = head;
        int end = count;
        nodes = new TimeoutNode[INITIAL_CAPACITY];
        head = 0;
        count = 0;
        for (int i = start; i < end; i++) {
            if (held[i] != null) {
                sink.accept(held[i]);
            }
        }
    }
}
