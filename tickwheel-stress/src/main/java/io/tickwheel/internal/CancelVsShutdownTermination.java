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
 * waits for termination. Termination is decided under the registry's monitor (by the
 * cancel's departure or by shutdown's own check, whichever finds the registry empty after the
 * state moved) and signalled afterwards through a latch. If neither decided it, awaitTermination
 * would time out; if both did, the second would find the state already TERMINATED. A lost signal
 * alone would not show here: the waiter looks at the state again every 100 ms, so it costs at
 * most that (see ScheduledExecutorCore's "Errors in a caller's deep stack").
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
