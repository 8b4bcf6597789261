package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.Callable;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Hazard: the executor's registry keeps its tasks in stripes, each under its own lock, and
 * termination needs every stripe empty after shutdown moved the state. Here, after shutdown, the
 * last two tasks, in two stripes, leave at once. Each removal that empties its stripe checks every
 * stripe, under each one's lock in turn. If each saw the other stripe still full, nobody would
 * terminate it (awaitTermination would rescue it by checking itself, which is why this test reads
 * the raw state and no waiter runs): the second removal to take the first one's stripe lock must
 * see it empty.
 *
 * <p>The rule: the registry is TERMINATED once both removals have returned.
 *
 * <p>Result: r1 = tasks still registered (a copy taken after r2 is read), r2 = raw state
 * TERMINATED (1/0).
 */
@JCStressTest
@State
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "both left, terminated")
@Outcome(expect = FORBIDDEN, desc = "empty after shutdown, yet not terminated")
public class RegistryEmptiesVsEmpties {

    private static final Callable<Object> BODY = () -> null;

    private final TaskRegistry registry = new TaskRegistry(4);
    private final ScheduledTask<Object> a = new ScheduledTask<>(new StubHost(), BODY, 0, 0);
    private final ScheduledTask<Object> b = new ScheduledTask<>(new StubHost(), BODY, 0, 0);

    /** Adds one task to stripe 1 and one to stripe 2, then shuts down. */
    public RegistryEmptiesVsEmpties() {
        registry.add(a, 1);
        registry.add(b, 2);
        registry.advanceAndSnapshot(TaskRegistry.SHUTDOWN);
    }

    /** The last task of stripe 1 leaves. */
    @Actor
    public void removeA() {
        registry.remove(a);
    }

    /** The last task of stripe 2 leaves. */
    @Actor
    public void removeB() {
        registry.remove(b);
    }

    /**
     * Reads the raw state: no check of its own.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final II_Result r) {
        r.r2 = registry.runState() == TaskRegistry.TERMINATED ? 1 : 0; // first: the copy below checks too
        r.r1 = registry.advanceAndSnapshot(TaskRegistry.SHUTDOWN).size();
    }
}
