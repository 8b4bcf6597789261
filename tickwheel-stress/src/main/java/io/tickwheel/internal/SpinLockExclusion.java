package io.tickwheel.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Hazard: the executor's registry lock ({@link SpinLock}) is released by a plain release store.
 * If two threads could both take it, or the next holder could miss what the last one wrote, two
 * registrations would corrupt the task list or reuse a sequence number.
 *
 * <p>The rule: the two sections run one after the other, each sees the other's write if it runs
 * second, and no increment is lost.
 *
 * <p>Result: r1, r2 = the counter each actor read plus one, r3 = the counter afterwards.
 */
@JCStressTest
@State
@Outcome(id = "1, 2, 2", expect = ACCEPTABLE, desc = "the first actor held the lock first")
@Outcome(id = "2, 1, 2", expect = ACCEPTABLE, desc = "the second actor held the lock first")
@Outcome(expect = FORBIDDEN, desc = "both held it at once, or one missed the other's write")
public class SpinLockExclusion {

    private final SpinLock lock = new SpinLock();
    /** Guarded by {@code lock}; plain, so only the lock orders the two sections. */
    private int counter;

    /**
     * Increments under the lock.
     *
     * @param r the result
     */
    @Actor
    public void first(final III_Result r) {
        lock.lock();
        try {
            r.r1 = ++counter;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Increments under the lock.
     *
     * @param r the result
     */
    @Actor
    public void second(final III_Result r) {
        lock.lock();
        try {
            r.r2 = ++counter;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records the final count.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final III_Result r) {
        lock.lock();
        try {
            r.r3 = counter;
        } finally {
            lock.unlock();
        }
    }
}
