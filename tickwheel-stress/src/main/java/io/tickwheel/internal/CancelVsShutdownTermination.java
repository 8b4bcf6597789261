package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Hazard: the last pending task is cancelled while another thread shuts the executor down and
 * waits for termination. Termination is decided by the cancel's departure or by shutdown's own
 * check, whichever finds the registry empty after the state moved, and signalled afterwards
 * through a latch. If both decided it, the second would find the state already TERMINATED. A
 * check neither made, or a lost signal, would not show here: the waiter checks again itself
 * every 100 ms, so it costs at most that (see TaskRegistry's class comment);
 * {@link RegistryEmptiesVsShutdown} reads the raw state, without the waiter's help.
 *
 * <p>The rule: the cancel succeeds, awaitTermination returns true (well within its 10 s), and
 * the executor is terminated.
 *
 * <p>Result: r1 = cancel (1/0), r2 = awaitTermination (1/0, -1 if interrupted), r3 = terminated.
 */
@JCStressTest
@State
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "terminated once, and the waiter saw it")
@Outcome(expect = FORBIDDEN, desc = "a missed or lost termination")
public class CancelVsShutdownTermination {

    private final ScheduledExecutorCore core = new ScheduledExecutorCore(new StubTimer(), Runnable::run);
    private final ScheduledTask<?> task = core.schedule(() -> null, TimeUnit.HOURS.toNanos(1), 0);

    /**
     * Cancels the last task.
     *
     * @param r the result
     */
    @Actor
    public void canceller(final III_Result r) {
        r.r1 = task.cancel(false) ? 1 : 0;
    }

    /**
     * Shuts down, then waits for termination.
     *
     * @param r the result
     */
    @Actor
    public void shutter(final III_Result r) {
        core.shutdown();
        try {
            r.r2 = core.awaitTermination(10, TimeUnit.SECONDS) ? 1 : 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            r.r2 = -1;
        }
    }

    /**
     * Records termination.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final III_Result r) {
        r.r3 = core.isTerminated() ? 1 : 0;
    }
}
