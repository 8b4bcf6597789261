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
 * termination needs every stripe empty after shutdown moved the state. Here the last task leaves
 * while another thread shuts down. The removal that empties its stripe reads the state under that
 * stripe's lock and, if it moved, checks every stripe; shutdown moves the state, copies every
 * stripe under its lock, then checks. If the removal read the old state and shutdown's copy still
 * saw the task, nobody would terminate it (awaitTermination would rescue it by checking itself,
 * which is why this test reads the raw state and no waiter runs). {@link RegistryEmptiesVsEmpties}
 * has two stripes emptied at once after shutdown.
 *
 * <p>The rule: whatever shutdown's copy saw (0 or 1 task), the registry is TERMINATED once both
 * calls have returned.
 *
 * <p>Result: r1 = tasks in shutdown's copy, r2 = raw state TERMINATED (1/0).
 */
@JCStressTest
@State
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "it left before the copy")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "it left after the copy")
@Outcome(expect = FORBIDDEN, desc = "empty after shutdown, yet not terminated")
public class RegistryEmptiesVsShutdown {

    private static final Callable<Object> BODY = () -> null;

    private final TaskRegistry registry = new TaskRegistry(4);
    private final ScheduledTask<Object> a = new ScheduledTask<>(new StubHost(), BODY, 0, 0);

    /** Adds the one task, to stripe 1 (the others stay empty). */
    public RegistryEmptiesVsShutdown() {
        registry.add(a, 1);
    }

    /** The last task leaves. */
    @Actor
    public void remove() {
        registry.remove(a);
    }

    /**
     * Shuts down.
     *
     * @param r the result
     */
    @Actor
    public void shutdown(final II_Result r) {
        r.r1 = registry.advanceAndSnapshot(TaskRegistry.SHUTDOWN).size();
    }

    /**
     * Reads the raw state: no check of its own.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final II_Result r) {
        r.r2 = registry.runState() == TaskRegistry.TERMINATED ? 1 : 0;
    }
}
