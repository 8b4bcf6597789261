package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The measuring instruments: process CPU time, the CPU time of a timer's own threads, and the
 * heap in use after full collections.
 *
 * <p>Threading: thread-safe (stateless; the MXBeans are).
 */
public final class Probes {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    /** Looked up once: the lookup is a platform-bean search the JIT compiles late, inside loops. */
    private static final List<GarbageCollectorMXBean> COLLECTORS =
            ManagementFactory.getGarbageCollectorMXBeans();
    /** How long the compiler threads must stay idle before a measured loop may start. */
    private static final long QUIET_MILLIS = 10;
    /** The longest {@link #awaitQuietCompiler()} waits (a workload whose timer keeps the JIT busy). */
    private static final long QUIET_WAIT_MAX_MILLIS = 2_000;

    private Probes() {
    }

    /**
     * Reads the CPU time of the whole process: every thread, the JVM's own (GC, compiler)
     * included. On Linux it sums each thread's nanosecond run time from
     * {@code /proc/self/task/<tid>/schedstat}, because {@code getProcessCpuTime()} there counts
     * in 10 ms clock ticks; a thread that has exited keeps the time last read for it, so the
     * value never goes backwards. Elsewhere it falls back to {@code getProcessCpuTime()}.
     *
     * @return nanoseconds of CPU
     */
    public static long processCpuNanos() {
        return ThreadTimes.INSTANCE.available() ? ThreadTimes.INSTANCE.total()
                : OS.getProcessCpuTime();
    }

    /**
     * Reads the CPU time of every live thread whose name carries {@link BenchTimer#THREAD_MARKER}.
     *
     * @return CPU nanoseconds per thread id
     */
    public static Map<Long, Long> timerThreadCpu() {
        Map<Long, Long> cpu = new HashMap<>();
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && infos[i].getThreadName().contains(BenchTimer.THREAD_MARKER)) {
                long nanos = THREADS.getThreadCpuTime(ids[i]);
                if (nanos >= 0) {
                    cpu.put(ids[i], nanos);
                }
            }
        }
        return cpu;
    }

    /**
     * Sums the CPU the timer's threads used since an earlier reading (threads started since
     * count from zero).
     *
     * @param before a reading of {@link #timerThreadCpu()}
     * @return nanoseconds of CPU
     */
    public static long timerThreadCpuSince(final Map<Long, Long> before) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : timerThreadCpu().entrySet()) {
            sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return sum;
    }

    /**
     * Collects garbage (a full collection; nothing measured here has finalizers or cleaners
     * that would need a second one), then reads the heap in use as the collection left it: the
     * sum of the heap pools right after it, from the collector's own report, so the buffers
     * threads grab just after a collection do not count. Falls back to the heap in use when no
     * collector reports.
     *
     * @return bytes of heap in use
     * @throws InterruptedException if interrupted while letting the collection settle
     */
    public static long usedHeapAfterGc() throws InterruptedException {
        MEMORY.gc();
        TimeUnit.MILLISECONDS.sleep(5);
        long after = GcReports.heapAfterLastGc();
        return after >= 0 ? after : MEMORY.getHeapMemoryUsage().getUsed();
    }

    /**
     * Collects garbage before a measured loop, so that none of an earlier round's garbage (a
     * stopped timer's returned set, its timeouts) is collected inside the loop, and so that the
     * loop allocates from the start of the young generation, in pages earlier rounds already
     * touched: without it each round allocates into pages the process never touched, and the
     * first touch of each 4 KiB page costs a page fault (about 20 ns per schedule for a timer
     * that allocates 56 bytes per timeout, measured with {@code W1Probe}).
     *
     * @throws InterruptedException if interrupted while letting the collection settle
     */
    public static void collectGarbage() throws InterruptedException {
        MEMORY.gc();
        TimeUnit.MILLISECONDS.sleep(20);
        awaitQuietCompiler();
    }

    /**
     * Reads the CPU time of the JIT compiler threads, those that have exited included (at their
     * last reading), so the value never goes backwards.
     *
     * @return nanoseconds, or -1 where Linux's {@code schedstat} cannot be read
     */
    public static long compilerCpuNanos() {
        return ThreadTimes.INSTANCE.compilerNanos();
    }

    /**
     * Waits until the JIT compiler threads have used no CPU for {@link #QUIET_MILLIS} in a row, at
     * most {@link #QUIET_WAIT_MAX_MILLIS}. Whatever ran just before a measured loop (the last
     * round's {@code stop()}, the harness's own reading of {@code /proc}) queues compilations
     * that otherwise run on the second core inside the loop and count in its process CPU: 1 to
     * 26 ns per schedule in W1 (W1Probe's "jit" column), the same for every timer, which both
     * inflates and blurs the ratios. The timer's own code is compiled by its warm-up rounds.
     *
     * @return milliseconds waited
     * @throws InterruptedException if interrupted while waiting
     */
    public static long awaitQuietCompiler() throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(QUIET_WAIT_MAX_MILLIS);
        long previous = compilerCpuNanos();
        while (previous >= 0 && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(QUIET_MILLIS);
            long now = compilerCpuNanos();
            if (now == previous) {
                break;
            }
            previous = now;
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /**
     * Counts the collections so far, of every collector.
     *
     * @return the count
     */
    public static long gcCount() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : COLLECTORS) {
            sum += Math.max(0, gc.getCollectionCount());
        }
        return sum;
    }

    /**
     * Counts the process's minor page faults so far (Linux's {@code /proc/self/stat}); each first
     * touch of a heap page costs one.
     *
     * @return the count, or -1 where it cannot be read
     */
    public static long minorFaults() {
        return ThreadTimes.INSTANCE.minorFaults();
    }

    /**
     * Calls each of the readings a measured loop brackets itself with ({@link #gcCount()},
     * {@link #minorFaults()}, {@link #compilerCpuNanos()}, {@link #processCpuNanos()}) often enough
     * for the JIT to have compiled them. Otherwise each reading taken just before a loop crosses
     * another compile threshold of the code it runs (regular expressions, streams, NIO reads of
     * {@code /proc}), and those compilations run on the other core inside the loop: 1 to 4 ns per
     * schedule in W1 rounds, with {@code -XX:+PrintCompilation} showing only harness code.
     *
     * @param calls how many times to call each reading
     */
    public static void warmUpReadings(final int calls) {
        long sink = 0;
        for (int i = 0; i < calls; i++) {
            sink += gcCount() + minorFaults() + compilerCpuNanos() + processCpuNanos();
        }
        if (sink == Long.MIN_VALUE) {
            System.err.println("unlikely sum " + sink); // keeps the calls from being dead code
        }
    }

    /**
     * Sleeps for a number of nanoseconds.
     *
     * @param nanos how long
     * @throws InterruptedException if interrupted
     */
    public static void sleepNanos(final long nanos) throws InterruptedException {
        if (nanos > 0) {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
    }
}
