package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: a schedule races shutdownNow on an empty executor. Registration checks the state and
 * links the task under the registry's lock, and shutdownNow moves the state and copies
 * the registry under it; if a task could join after the copy, it would be neither rejected nor
 * returned, its future would stay pending and the executor would never terminate. If the
 * termination decided under that lock were missed, the executor would not terminate either.
 *
 * <p>The rule: either the schedule won (shutdownNow returns the task, cancelled) or it was
 * rejected (shutdownNow returns nothing); the executor is terminated either way.
 *
 * <p>Result: r1 = schedule returned (1) or was rejected (0), r2 = shutdownNow's list size,
 * r3 = terminated, r4 = the scheduled task is cancelled.
 */
@JCStressTest
@State
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "scheduled first: returned by shutdownNow, cancelled")
@Outcome(id = "0, 0, 1, 0", expect = ACCEPTABLE, desc = "shutdownNow first: the schedule was rejected")
@Outcome(expect = FORBIDDEN, desc = "a task neither rejected nor returned, or no termination")
public class ScheduleVsShutdownNow {

    private final ScheduledExecutorCore core = new ScheduledExecutorCore(new StubTimer(), Runnable::run);
    private volatile ScheduledTask<?> task;

    /**
     * Schedules a task an hour out.
     *
     * @param r the result
     */
    @Actor
    public void scheduler(final IIII_Result r) {
        try {
            task = core.schedule(() -> null, TimeUnit.HOURS.toNanos(1), 0);
            r.r1 = 1;
        } catch (RejectedExecutionException rejected) {
            r.r1 = 0;
        }
    }

    /**
     * Shuts the executor down now.
     *
     * @param r the result
     */
    @Actor
    public void stopper(final IIII_Result r) {
        r.r2 = core.shutdownNow().size();
    }

    /**
     * Records termination and the task's fate.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIII_Result r) {
        r.r3 = core.isTerminated() ? 1 : 0;
        ScheduledTask<?> scheduled = task;
        r.r4 = scheduled != null && scheduled.isCancelled() ? 1 : 0;
    }
}
