package io.tickwheel.bench.workloads;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The process's CPU time in nanoseconds, summed over its threads from Linux's per-thread
 * {@code schedstat} (whose first field is the thread's time on a CPU, in nanoseconds). Threads
 * that have exited keep the last value read for them; a thread that starts and exits between two
 * readings is never seen, which the measured workloads allow for: their timers' threads live
 * across their loops, and each loop is bracketed by two readings.
 *
 * <p>Its readings bracket measured loops, so they are written with as little JDK machinery as
 * will do (a {@link File#list()}, a {@link FileInputStream} into a reused buffer, digits parsed by
 * hand): whatever they call is compiled by the JIT on the other core the first few hundred or
 * thousand times, and with NIO paths, streams and regular expressions in them, some of those
 * compilations took 10 to 30 ms and landed inside measured W1 rounds.
 *
 * <p>Threading: thread-safe (via synchronization; it is read a few times per run).
 */
final class ThreadTimes {

    static final ThreadTimes INSTANCE = new ThreadTimes(new File("/proc/self/task"));

    private final File tasks;
    private final boolean available;
    /** The last value read per thread id, live or exited. Guarded by this. */
    private final Map<String, Long> last = new HashMap<>();
    /** The same, for the JIT compiler threads only. Guarded by this. */
    private final Map<String, Long> compilers = new HashMap<>();
    /** Read buffer for the small /proc files. Guarded by this. */
    private final byte[] buffer = new byte[1024];

    private ThreadTimes(final File tasks) {
        this.tasks = tasks;
        this.available = readable(tasks);
    }

    private static boolean readable(final File tasks) {
        String[] ids = tasks.list();
        if (ids == null) {
            return false;
        }
        for (String id : ids) {
            if (new File(new File(tasks, id), "schedstat").canRead()) {
                return true;
            }
        }
        return false;
    }

    boolean available() {
        return available;
    }

    /** Sums the CPU time of every thread seen so far. */
    synchronized long total() {
        readInto(last, task -> true); // a failed listing leaves the last values read
        return sum(last);
    }

    /**
     * Sums the CPU time of the JIT compiler threads (their names start "C1 " or "C2 "), so a
     * caller can tell whether compilation is going on. HotSpot stops idle compiler threads and
     * starts new ones; one that has exited keeps the last value read for it, so the sum never
     * goes backwards.
     *
     * @return nanoseconds, or -1 where {@code schedstat} cannot be read
     */
    synchronized long compilerNanos() {
        return available && readInto(compilers, this::isCompiler) ? sum(compilers) : -1;
    }

    /**
     * Reads the {@code schedstat} of every live thread that {@code which} accepts into {@code seen},
     * by thread id; a thread that exits while being read keeps its last value.
     *
     * @return false if the listing of threads failed
     */
    private boolean readInto(final Map<String, Long> seen, final Predicate<File> which) {
        String[] ids = tasks.list();
        if (ids == null) {
            return false;
        }
        for (String id : ids) {
            File task = new File(tasks, id);
            if (which.test(task)) {
                long nanos = firstNumber(new File(task, "schedstat"));
                if (nanos >= 0) {
                    seen.put(id, nanos);
                }
            }
        }
        return true;
    }

    private static long sum(final Map<String, Long> seen) {
        long sum = 0;
        for (long nanos : seen.values()) {
            sum += nanos;
        }
        return sum;
    }

    private boolean isCompiler(final File task) {
        int length = readFile(new File(task, "comm"));
        return startsWith(length, "C1 Compiler") || startsWith(length, "C2 Compiler");
    }

    private boolean startsWith(final int length, final String prefix) {
        if (length < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (buffer[i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Reads field 10 of {@code /proc/self/stat}, the minor page faults; -1 when unreadable. */
    synchronized long minorFaults() {
        int length = readFile(new File("/proc/self/stat"));
        int afterName = -1;
        for (int i = length - 1; i >= 0; i--) {
            if (buffer[i] == ')') { // the name may hold spaces and brackets: the last one ends it
                afterName = i + 2;
                break;
            }
        }
        if (afterName < 0) {
            return -1; // not Linux, or an unexpected format
        }
        int field = 3; // the fields after the name start at field 3
        int at = afterName;
        while (field < 10 && at < length) {
            if (buffer[at++] == ' ') {
                field++;
            }
        }
        return parse(at, length);
    }

    /** The leading number of a file (schedstat's time on a CPU); -1 when unreadable. */
    private long firstNumber(final File file) {
        return parse(0, readFile(file));
    }

    private long parse(final int from, final int length) {
        long value = 0;
        int at = from;
        while (at < length && buffer[at] >= '0' && buffer[at] <= '9') {
            value = value * 10 + (buffer[at++] - '0');
        }
        return at == from ? -1 : value;
    }

    /**
     * Reads a small file into {@code buffer}.
     *
     * @return the bytes read, 0 when the file cannot be read (the thread exited meanwhile)
     */
    private int readFile(final File file) {
        try (FileInputStream in = new FileInputStream(file)) {
            int length = 0;
            int n;
            while (length < buffer.length && (n = in.read(buffer, length, buffer.length - length)) > 0) {
                length += n;
            }
            return length;
        } catch (IOException e) {
            return 0;
        }
    }
}
