package io.tickwheel.durable.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Hazard: a durable timer's wheel refuses work (a timeout to arm, a handler's retry) just as the
 * retry thread of {@link RefusedWork} finds nothing left and ends. The work is only in memory: if
 * the refusal's {@code add} counts on the ending thread and the thread does not see it, the
 * timeout is stranded until a restart.
 *
 * <p>What the code guarantees, and this test checks: exactly one of the two takes the work on:
 * the ending thread goes on ({@code keepRunning} true) and no new thread starts, or it ends and
 * {@code add} starts a new one. Never neither (stranded), never both (two retry threads). The work
 * waits in the queue either way.
 *
 * <p>Result: r1 = the retry thread goes on (1/0), r2 = threads the add started, r3 = attempts waiting.
 */
@JCStressTest
@State
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the retry thread saw the work and goes on")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the retry thread ended; add started a new one")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "stranded: the thread ended and add started none")
@Outcome(expect = FORBIDDEN, desc = "two retry threads, or the work lost")
public class RefusedWorkAddVsExit {

    private final AtomicInteger starts = new AtomicInteger();
    /** Counts starts and runs nothing: the actor below plays the retry thread. */
    private final RefusedWork work = new RefusedWork("jcstress", loop -> {
        starts.incrementAndGet();
        return Thread.currentThread();
    });

    /** A retry thread is running, its queue just drained, as after a round that took everything. */
    public RefusedWorkAddVsExit() {
        work.add(() -> { }, null);
        work.runRound();
        starts.set(0);
    }

    /**
     * The wheel's thread: the wheel refused, the work is queued here.
     *
     * @param r the result
     */
    @Actor
    public void refusal(final III_Result r) {
        work.add(() -> { }, null);
    }

    /**
     * The retry thread, after its round: goes on or ends.
     *
     * @param r the result
     */
    @Actor
    public void retryThread(final III_Result r) {
        r.r1 = work.keepRunning() ? 1 : 0;
    }

    /**
     * Counts the starts and what waits.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final III_Result r) {
        r.r2 = starts.get();
        r.r3 = work.waiting();
    }
}
