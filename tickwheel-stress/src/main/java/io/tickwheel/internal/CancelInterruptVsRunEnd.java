package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: {@code cancel(true)} races a worker running the task. The cancel interrupts through
 * the task's own run phase (RUNNING to INTERRUPTING by CAS, the interrupt, then a field write
 * to INTERRUPTED), not through FutureTask's, so that an Error cutting it short cannot leave the
 * run spinning; the run's end waits out INTERRUPTING and clears the interrupt. If the two could
 * miss each other, the interrupt would land after the run, on whatever the pool runs next on that
 * thread, or the task would never leave the registry.
 *
 * <p>The rule: whichever wins, the worker's thread is not left interrupted once the run returns,
 * the body runs at most once, and the executor terminates on shutdown.
 *
 * <p>Result: r1 = cancel(true) returned true, r2 = the body ran, r3 = the worker's thread was
 * left interrupted after run(), r4 = terminated after shutdown.
 */
@JCStressTest
@State
@Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "cancelled before the body started")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "cancelled while the body ran: interrupted, cleared")
@Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE, desc = "the run ended first: nothing to cancel")
@Outcome(expect = FORBIDDEN, desc = "an interrupt leaked past the run, or no termination")
public class CancelInterruptVsRunEnd extends DispatchedTaskRig {

    private volatile int ran;
    /** Dispatched at once (no delay): READY, kept by the rig for the worker actor to run. */
    private final ScheduledTask<?> task = core.schedule(() -> {
        ran = 1;
        return null;
    }, 0, 0);

    /**
     * Runs the task as a pool thread would, then looks at its own interrupt status.
     *
     * @param r the result
     */
    @Actor
    public void worker(final IIII_Result r) {
        r.r3 = runAsPoolThread();
    }

    /**
     * Cancels, interrupting if running.
     *
     * @param r the result
     */
    @Actor
    public void canceller(final IIII_Result r) {
        r.r1 = task.cancel(true) ? 1 : 0;
    }

    /**
     * Records whether the body ran and whether the executor terminates.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIII_Result r) {
        r.r2 = ran;
        core.shutdown();
        r.r4 = core.isTerminated() ? 1 : 0;
    }
}
