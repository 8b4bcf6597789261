package io.tickwheel.durable.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Hazard: the journal writer's hand-off ({@link OpHandoff}) takes no lock, so a caller wakes the
 * writer only if it sees the writer's "about to sleep" flag. The caller queues its op, then reads
 * the flag; the writer sets the flag, then looks at the queue once more. If both could miss the
 * other's write, the writer would sleep with the op queued and nobody waking it: the op's caller
 * (a blocking {@code schedule}) would wait out the writer's one-second idle sleep instead of a
 * force.
 *
 * <p>Result: r1 = the caller saw the flag (it wakes the writer), r2 = the writer found the queue
 * empty (it sleeps).
 */
@JCStressTest
@State
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the writer saw the op before sleeping")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "both saw each other: a spare wake-up")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the writer sleeps, the caller wakes it")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "the writer sleeps with the op queued and nobody wakes it")
public class OpHandoffWakeup {

    private final OpHandoff handoff = new OpHandoff(Thread.currentThread());
    private final JournalOp op = JournalOp.cancel("t", "k");

    /**
     * A caller's submit.
     *
     * @param r the result
     */
    @Actor
    public void caller(final II_Result r) {
        r.r1 = handoff.queueAndCheckSleeping(op) ? 1 : 0;
    }

    /**
     * The writer, finding nothing on its first poll, about to sleep.
     *
     * @param r the result
     */
    @Actor
    public void writer(final II_Result r) {
        r.r2 = handoff.announceSleep() ? 1 : 0;
    }
}
