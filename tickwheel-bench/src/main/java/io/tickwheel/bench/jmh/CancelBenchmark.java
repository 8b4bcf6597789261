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
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code cancel} alone: a batch of far timeouts is scheduled before each invocation, outside
 * the measurement, and the invocation cancels them all.
 *
 * <p>Threading: one state per benchmark thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CancelBenchmark {

    static final int BATCH = 10_000;

    private final long[] delays = Tasks.uniformDelays(BATCH, 10 * Tasks.SECOND,
            60 * Tasks.SECOND, 12);
    private final Object[] handles = new Object[BATCH];

    /**
     * Schedules the batch, unmeasured.
     *
     * @param state the timer
     */
    @Setup(Level.Invocation)
    public void scheduleBatch(final TimerState state) {
        for (int i = 0; i < BATCH; i++) {
            handles[i] = state.bench().schedule(state.noop(), delays[i]);
        }
    }

    /**
     * Cancels the batch.
     *
     * @param state the timer
     * @return how many cancels succeeded, so nothing is dead code
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int cancel(final TimerState state) {
        BenchTimer timer = state.bench();
        int cancelled = 0;
        for (int i = 0; i < BATCH; i++) {
            if (timer.cancel(handles[i])) {
                cancelled++;
            }
        }
        return cancelled;
    }
}
