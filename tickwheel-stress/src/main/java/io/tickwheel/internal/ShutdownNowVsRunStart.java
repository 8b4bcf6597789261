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
 * Hazard: {@code shutdownNow()} races a worker starting the task. The worker takes the run phase
 * (READY to RUNNING by CAS) and only then writes itself as the runner; a shutdownNow between the
 * two took RUNNING to INTERRUPTING, found no runner and sent nothing, and the body then ran
 * uninterrupted: a body that waits to be interrupted never ended, nor did the executor. The
 * worker now reads the phase again after writing the runner, and interrupts itself if shutdownNow
 * came in between (both sides write, then read what the other wrote).
 *
 * <p>The rule: a body that runs while shutdownNow claims it sees the interrupt, and the worker's
 * thread is not left interrupted once the run returns.
 *
 * <p>Result: r1 = the body ran, r2 = the body saw the interrupt, r3 = the worker's thread was
 * left interrupted after run(), r4 = terminated after shutdownNow, the task done, and in
 * shutdownNow's list exactly when it never started.
 */
@JCStressTest
@State
@Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "shutdownNow claimed it before it started")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "it ran under shutdownNow: interrupted, then cleared")
@Outcome(expect = FORBIDDEN, desc = "a body ran under shutdownNow without its interrupt, or one leaked")
public class ShutdownNowVsRunStart extends DispatchedTaskRig {

    private volatile boolean stopped;
    private volatile int ran;
    private volatile int sawInterrupt;
    private volatile int claimed;
    /**
     * Dispatched at once (no delay): READY, kept by the rig for the worker actor to run. The
     * body waits until shutdownNow has returned, so if it runs at all, shutdownNow found it running.
     */
    private final ScheduledTask<?> task = core.schedule(() -> {
        ran = 1;
        while (!stopped) {
            Thread.onSpinWait();
        }
        sawInterrupt = Thread.currentThread().isInterrupted() ? 1 : 0;
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
     * Shuts the executor down now, then lets a running body look.
     *
     * @param r the result
     */
    @Actor
    public void stopper(final IIII_Result r) {
        claimed = core.shutdownNow().size();
        stopped = true;
    }

    /**
     * Records what the body saw and whether the executor terminated.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIII_Result r) {
        r.r1 = ran;
        r.r2 = sawInterrupt;
        // Terminated, the task done, and returned by shutdownNow exactly when it never started.
        r.r4 = core.isTerminated() && task.isDone() && claimed == 1 - ran ? 1 : 0;
    }
}
