package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: two threads schedule at once into one stripe of the registry (the executor is built
 * with one, so both contend for its lock: one takes it by CAS, the other spins or queues). Each
 * links its task and takes the stripe's next sequence number under the lock; a lost link would
 * leave a task that shutdownNow does not return (its future pending, the executor never
 * terminating), and a shared sequence number would make compareTo's tie-break inconsistent.
 *
 * <p>The rule: the two sequence numbers are 1 and 2 (above the stripe's index bits), shutdownNow
 * returns both tasks, and the executor terminates.
 *
 * <p>Result: r1, r2 = each task's sequence, r3 = shutdownNow's list size, r4 = terminated.
 */
@JCStressTest
@State
@Outcome(id = "1, 2, 2, 1", expect = ACCEPTABLE, desc = "the first actor registered first")
@Outcome(id = "2, 1, 2, 1", expect = ACCEPTABLE, desc = "the second actor registered first")
@Outcome(expect = FORBIDDEN, desc = "a lost registration or a shared sequence number")
public class ScheduleVsSchedule {

    private final ScheduledExecutorCore core = new ScheduledExecutorCore(new StubTimer(), Runnable::run, null, null, 1);

    /**
     * Schedules one task.
     *
     * @param r the result
     */
    @Actor
    public void first(final IIII_Result r) {
        r.r1 = (int) (core.schedule(() -> null, TimeUnit.HOURS.toNanos(1), 0).sequence >>> TaskRegistry.STRIPE_BITS);
    }

    /**
     * Schedules another.
     *
     * @param r the result
     */
    @Actor
    public void second(final IIII_Result r) {
        r.r2 = (int) (core.schedule(() -> null, TimeUnit.HOURS.toNanos(1), 0).sequence >>> TaskRegistry.STRIPE_BITS);
    }

    /**
     * Shuts down now and records what came back.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final IIII_Result r) {
        r.r3 = core.shutdownNow().size();
        r.r4 = core.isTerminated() ? 1 : 0;
    }
}
