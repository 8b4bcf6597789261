package io.tickwheel.bench.jmh;

import io.tickwheel.bench.workloads.Tasks;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
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
 * Expiring a full bucket: before each invocation, outside the measurement, a batch of timeouts
 * with one common deadline is scheduled and the setup waits until that deadline; the invocation
 * then waits until the last of them has fired. The time per timeout is the worker's expiry work
 * plus up to one tick (1 ms) of alignment spread over the batch (5 ns per timeout at 200,000).
 *
 * <p>Threading: one state per benchmark thread; the timer's worker runs the tasks, which count
 * into an atomic and open a latch when the last one runs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ExpireBucketBenchmark {

    static final int BATCH = 200_000;
    private static final long LEAD = 50 * Tasks.MS;

    private final AtomicInteger fired = new AtomicInteger();
    private volatile CountDownLatch done = new CountDownLatch(1);
    private Object task;

    /**
     * Prepares the shared counting task for the timer.
     *
     * @param state the timer
     */
    @Setup(Level.Trial)
    public void prepare(final TimerState state) {
        task = state.bench().prepare(() -> {
            if (fired.incrementAndGet() == BATCH) {
                done.countDown();
            }
        });
    }

    /**
     * Schedules the batch for one deadline and waits for that deadline, unmeasured.
     *
     * @param state the timer
     */
    @Setup(Level.Invocation)
    public void scheduleBatch(final TimerState state) {
        fired.set(0);
        done = new CountDownLatch(1);
        long deadline = System.nanoTime() + LEAD;
        for (int i = 0; i < BATCH; i++) {
            state.bench().schedule(task, deadline - System.nanoTime());
        }
        long wait = deadline - System.nanoTime();
        while (wait > 0) {
            LockSupport.parkNanos(wait);
            wait = deadline - System.nanoTime();
        }
    }

    /**
     * Waits for the bucket to expire.
     *
     * @throws InterruptedException if interrupted
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void expireFullBucket() throws InterruptedException {
        if (!done.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("only " + fired.get() + " of " + BATCH + " fired");
        }
    }
}
