package io.tickwheel.bench.jmh;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.workloads.Tasks;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Schedule and cancel together: {@link #scheduleThenCancel} cancels the timeout it just
 * scheduled; {@link #churn} is W2's request-timeout pattern (schedule one, cancel the oldest of
 * a ring of outstanding 30 s timeouts).
 *
 * <p>Threading: one state per benchmark thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ScheduleCancelBenchmark {

    static final int RING = 1024;
    private static final long DELAY = 30 * Tasks.SECOND;

    private final Object[] ring = new Object[RING];
    private int slot;

    /**
     * Fills the ring.
     *
     * @param state the timer
     */
    @Setup(Level.Iteration)
    public void fill(final TimerState state) {
        for (int i = 0; i < RING; i++) {
            if (ring[i] != null) {
                state.bench().cancel(ring[i]);
            }
            ring[i] = state.bench().schedule(state.noop(), DELAY);
        }
    }

    /**
     * Schedules one timeout and cancels it.
     *
     * @param state the timer
     * @return whether the cancel succeeded, so nothing is dead code
     */
    @Benchmark
    public boolean scheduleThenCancel(final TimerState state) {
        BenchTimer timer = state.bench();
        return timer.cancel(timer.schedule(state.noop(), DELAY));
    }

    /**
     * Schedules one timeout and cancels the oldest outstanding one.
     *
     * @param state the timer
     * @return whether the cancel succeeded, so nothing is dead code
     */
    @Benchmark
    public boolean churn(final TimerState state) {
        BenchTimer timer = state.bench();
        Object fresh = timer.schedule(state.noop(), DELAY);
        boolean cancelled = timer.cancel(ring[slot]);
        ring[slot] = fresh;
        slot = (slot + 1) & (RING - 1);
        return cancelled;
    }
}
