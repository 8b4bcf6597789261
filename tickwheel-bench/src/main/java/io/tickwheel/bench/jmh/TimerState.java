package io.tickwheel.bench.jmh;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.workloads.Tasks;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The timer under test in a JMH trial, made by the simulator's own adapters: tickwheel's two
 * timers and Netty 4.1's at a 1 ms tick (any id of the simulator's catalog works with
 * {@code -p timer=...}). It is started before the first measurement, with one far timeout.
 *
 * <p>Threading: shared by the benchmark threads; the timer is thread-safe.
 */
@State(Scope.Benchmark)
public class TimerState {

    /** The timer's id in the simulator's catalog (set by JMH, by reflection). */
    @Param({TimerCatalog.TICKWHEEL_HIER, "tickwheel-hashed-1ms", TimerCatalog.NETTY_41_1MS})
    private String timer;

    private BenchTimer bench;
    private Object noop;

    /** Makes and starts the timer. */
    @Setup(Level.Trial)
    public void start() {
        bench = TimerCatalog.find(timer)
                .orElseThrow(() -> new IllegalArgumentException("unknown timer " + timer))
                .create();
        noop = bench.prepare(Tasks.NOOP);
        bench.schedule(noop, Tasks.HOUR);
    }

    /** Stops the timer. */
    @TearDown(Level.Trial)
    public void stop() {
        if (bench != null) {
            bench.stop();
        }
    }

    /**
     * Returns the timer.
     *
     * @return the adapter
     */
    public BenchTimer bench() {
        return bench;
    }

    /**
     * Returns the shared no-op task, prepared for this timer.
     *
     * @return the prepared task
     */
    public Object noop() {
        return noop;
    }
}
