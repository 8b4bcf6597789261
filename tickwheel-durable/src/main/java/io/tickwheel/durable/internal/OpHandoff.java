package io.tickwheel.durable.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How ops go from callers to the journal's writer: a lock-free queue, and a wake-up for a writer
 * that sleeps while it is empty. No lock on the callers' side, because a caller's
 * StackOverflowError (a schedule far down a deep stack) can strike between any two calls: inside
 * a blocking queue's put it left one of that queue's locks held, and with it the writer and every
 * later op waiting for good ({@code SubmitStackOverflowTest}). Here an overflow either queues the op
 * or not, and at worst leaves the writer asleep with it queued, for at most {@link #IDLE_PARK_NANOS}.
 *
 * <p>Threading: {@link #add} from any thread; {@link #next} and {@link #drainTo} on the writer
 * thread only. An add happens-before the poll that returns its op ({@link ConcurrentLinkedQueue}).
 */
final class OpHandoff {

    /**
     * The writer's longest sleep: a caller whose stack overflows after queueing its op and before
     * waking the writer leaves it asleep until the next caller, or this long. Waking once a second
     * while idle costs nothing measurable.
     */
    static final long IDLE_PARK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ConcurrentLinkedQueue<JournalOp> queue = new ConcurrentLinkedQueue<>();
    private final Thread writer;
    /** Set by the writer before its last look at the queue ahead of a sleep; callers read it after their add. */
    private volatile boolean sleeping;

    /**
     * Creates the hand-off.
     *
     * @param writer the thread that takes the ops
     */
    OpHandoff(final Thread writer) {
        this.writer = writer;
    }

    /**
     * Queues an op and wakes the writer if it sleeps.
     *
     * @param op the op
     */
    void add(final JournalOp op) {
        if (queueAndCheckSleeping(op)) {
            LockSupport.unpark(writer);
        }
    }

    /**
     * The caller's half of the wake-up: queues the op, then reads the writer's flag. Either this
     * read sees the flag, or the writer's last look ({@link #announceSleep}, after setting it) sees
     * the op: both write, then read what the other wrote, all volatile (jcstress
     * {@code OpHandoffWakeup}).
     *
     * @param op the op
     * @return true if the writer may be asleep and must be woken
     */
    boolean queueAndCheckSleeping(final JournalOp op) {
        queue.add(op);
        return sleeping;
    }

    /**
     * The writer's half: says it is about to sleep, then looks at the queue once more.
     *
     * @return true if the queue is still empty, so it may sleep
     */
    boolean announceSleep() {
        sleeping = true;
        return queue.isEmpty();
    }

    /**
     * The next op, sleeping while there is none (writer thread).
     *
     * @return the op
     * @throws InterruptedException if the writer is interrupted, as from a blocking queue's take
     */
    JournalOp next() throws InterruptedException {
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            JournalOp op = queue.poll();
            if (op != null) {
                return op;
            }
            if (announceSleep()) {
                LockSupport.parkNanos(this, IDLE_PARK_NANOS);
            }
            sleeping = false;
        }
    }

    /**
     * Moves queued ops into {@code batch} (writer thread).
     *
     * @param batch where to
     * @param max   the most to move
     */
    void drainTo(final List<JournalOp> batch, final int max) {
        JournalOp op;
        for (int n = 0; n < max && (op = queue.poll()) != null; n++) {
            batch.add(op);
        }
    }

    /**
     * Takes everything queued (any thread; the close and a late submit fail what they take).
     *
     * @return what was queued, in order
     */
    List<JournalOp> takeAll() {
        List<JournalOp> all = new ArrayList<>();
        for (JournalOp op = queue.poll(); op != null; op = queue.poll()) {
            all.add(op);
        }
        return all;
    }

    /**
     * The queue itself, for tests and the jcstress model: what is added to it directly wakes no one,
     * as an add whose wake-up was lost.
     *
     * @return the queue
     */
    Queue<JournalOp> queue() {
        return queue;
    }
}
