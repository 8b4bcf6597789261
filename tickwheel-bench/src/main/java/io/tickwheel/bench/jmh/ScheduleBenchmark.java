package io.tickwheel.bench.jmh;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.workloads.Tasks;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code newTimeout} alone: each invocation schedules a batch of far timeouts (10 to 60 s, one
 * shared task); they are cancelled after the invocation, outside the measurement, so the
 * pending set stays bounded.
 *
 * <p>Threading: one state per benchmark thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ScheduleBenchmark {

    static final int BATCH = 10_000;

    private final long[] delays = Tasks.uniformDelays(BATCH, 10 * Tasks.SECOND,
            60 * Tasks.SECOND, 11);
    private final Object[] handles = new Object[BATCH];

    /**
     * Schedules one batch.
     *
     * @param state the timer
     * @return the last handle, so nothing is dead code
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object schedule(final TimerState state) {
        BenchTimer timer = state.bench();
        Object task = state.noop();
        for (int i = 0; i < BATCH; i++) {
            handles[i] = timer.schedule(task, delays[i]);
        }
        return handles[BATCH - 1];
    }

    /**
     * Cancels the batch, unmeasured.
     *
     * @param state the timer
     */
    @TearDown(Level.Invocation)
    public void cancelBatch(final TimerState state) {
        for (int i = 0; i < BATCH; i++) {
            state.bench().cancel(handles[i]);
            handles[i] = null;
        }
    }
}
