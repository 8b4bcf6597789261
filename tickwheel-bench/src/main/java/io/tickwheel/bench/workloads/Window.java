package io.tickwheel.bench.workloads;

import java.util.Map;

/**
 * One measured window of a scenario: wall time, process CPU, the timer threads' and the JIT
 * compiler threads' CPU between
 * {@link #open()} and {@link #close()}.
 *
 * <p>Threading: not thread-safe; confined to the thread that runs the scenario.
 */
final class Window {

    private final long t0;
    private final long cpu0;
    private final long jit0;
    private final Map<Long, Long> threads0;
    private long t1;
    private long cpu1;
    private long threadCpu;
    private long jit1;

    private Window() {
        threads0 = Probes.timerThreadCpu();
        jit0 = Probes.compilerCpuNanos();
        cpu0 = Probes.processCpuNanos();
        t0 = System.nanoTime();
    }

    /** Opens a window now. */
    static Window open() {
        return new Window();
    }

    /** Closes the window now. */
    void close() {
        t1 = System.nanoTime();
        cpu1 = Probes.processCpuNanos();
        threadCpu = Probes.timerThreadCpuSince(threads0);
        jit1 = Probes.compilerCpuNanos();
    }

    /** Returns the window's start ({@code System.nanoTime()} scale). */
    long startNanos() {
        return t0;
    }

    /** Puts throughput and CPU figures for {@code ops} operations done in the window. */
    void put(final Metrics m, final String opName, final long ops) {
        double seconds = (t1 - t0) / 1e9;
        m.put("windowSeconds", seconds);
        m.put(opName, ops);
        m.put("throughputPerSec", ops / seconds);
        m.put("cpuNsPerOp", ops == 0 ? 0 : (double) (cpu1 - cpu0) / ops);
        m.put("processCpuMsPerSec", (cpu1 - cpu0) / 1e6 / seconds);
        m.put("timerThreadCpuMsPerSec", threadCpu / 1e6 / seconds);
        // The JIT compiler threads' share of the process CPU: a scenario's window should see
        // compiled code, so a large figure here says the warm-up was too short.
        m.put("jitCpuMsPerSec", jit0 < 0 || jit1 < 0 ? Double.NaN : (jit1 - jit0) / 1e6 / seconds);
    }
}
