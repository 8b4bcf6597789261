package io.tickwheel.bench.ses;

import io.tickwheel.bench.workloads.Probes;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;

/**
 * What a run costs: process CPU time (every thread, so a timer thread's or the JDK's hidden
 * delayer thread's share of each operation counts), the calling thread's own CPU time, and heap
 * still in use after collection.
 *
 * <p>Threading: thread-safe (stateless; the MX beans are).
 */
final class Probe {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private Probe() {
    }

    /**
     * Returns the CPU time of the whole process.
     *
     * @return nanoseconds, or -1 when the JVM cannot tell
     */
    static long processCpuNanos() {
        // On Linux, the sum of every thread's nanosecond schedstat: getProcessCpuTime() there
        // counts in 10 ms ticks, which over ~150 ms of work moved the figure in 5 ns steps.
        long nanos = Probes.processCpuNanos();
        if (nanos >= 0) {
            return nanos;
        }
        if (OS instanceof com.sun.management.OperatingSystemMXBean hotSpot) {
            return hotSpot.getProcessCpuTime();
        }
        return -1;
    }

    /**
     * Returns the CPU time of the calling thread: the share of an operation its caller pays.
     *
     * @return nanoseconds, or -1 when the JVM cannot tell
     */
    static long threadCpuNanos() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    /**
     * Readings of the three clocks at one moment, or the time between two such moments.
     *
     * @param wallNanos {@link System#nanoTime()}
     * @param cpuNanos the process's CPU time, or -1 when unknown
     * @param callerCpuNanos the calling thread's CPU time, or -1 when unknown
     */
    record Clocks(long wallNanos, long cpuNanos, long callerCpuNanos) {

        /**
         * Readings taken to start a measured loop, once the JIT compiler threads have gone quiet
         * (see {@link Probes#awaitQuietCompiler()}), so that compilations queued by what ran
         * before are not counted in the loop's process CPU.
         */
        static Clocks start() {
            try {
                Probes.awaitQuietCompiler();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return now();
        }

        static Clocks now() {
            return new Clocks(System.nanoTime(), processCpuNanos(), threadCpuNanos());
        }

        /** The time from {@code start} to now; a clock unknown at either end stays -1. */
        static Clocks since(final Clocks start) {
            Clocks end = now();
            return new Clocks(end.wallNanos - start.wallNanos, difference(start.cpuNanos, end.cpuNanos),
                    difference(start.callerCpuNanos, end.callerCpuNanos));
        }

        private static long difference(final long start, final long end) {
            return start < 0 || end < 0 ? -1 : end - start;
        }
    }

    /**
     * Returns the heap in use once collections stop freeing anything: collect until two readings
     * in a row agree within 64 KiB (at most ten rounds), so garbage left by the previous phase is
     * not counted as retained.
     *
     * @return bytes in use
     */
    static long settledHeapBytes() {
        long previous = Long.MAX_VALUE;
        for (int round = 0; round < 10; round++) {
            System.gc();
            try {
                Thread.sleep(20); // let reference processing and cleaner threads catch up
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            long used = MEMORY.getHeapMemoryUsage().getUsed();
            if (Math.abs(previous - used) < 64 * 1024) {
                return used;
            }
            previous = used;
        }
        return MEMORY.getHeapMemoryUsage().getUsed();
    }
}
