package io.tickwheel.bench.workloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The process's CPU time in nanoseconds, summed over its threads from Linux's per-thread
 * {@code schedstat} (whose first field is the thread's time on a CPU, in nanoseconds). Threads
 * that have exited keep the last value read for them.
 *
 * <p>Threading: thread-safe (via synchronization; it is read a few times per run).
 */
final class ThreadTimes {

    static final ThreadTimes INSTANCE = new ThreadTimes(Path.of("/proc/self/task"));

    private static final Pattern SPACE = Pattern.compile(" ");

    private final Path tasks;
    private final boolean available;
    /** The last value read per thread id, live or exited. Guarded by this. */
    private final Map<String, Long> last = new HashMap<>();
    /** The same, for the JIT compiler threads only. Guarded by this. */
    private final Map<String, Long> compilers = new HashMap<>();

    private ThreadTimes(final Path tasks) {
        this.tasks = tasks;
        this.available = readable(tasks);
    }

    private static boolean readable(final Path tasks) {
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                if (Files.isReadable(task.resolve("schedstat"))) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
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
        return available && readInto(compilers, ThreadTimes::isCompiler) ? sum(compilers) : -1;
    }

    /**
     * Reads the {@code schedstat} of every live thread that {@code which} accepts into {@code seen},
     * by thread id; a thread that exits while being read keeps its last value.
     *
     * @return false if the listing of threads failed
     */
    private boolean readInto(final Map<String, Long> seen, final Predicate<Path> which) {
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                Path tid = task.getFileName();
                if (tid != null && which.test(task)) {
                    long nanos = read(task.resolve("schedstat"));
                    if (nanos >= 0) {
                        seen.put(tid.toString(), nanos);
                    }
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static long sum(final Map<String, Long> seen) {
        long sum = 0;
        for (long nanos : seen.values()) {
            sum += nanos;
        }
        return sum;
    }

    private static boolean isCompiler(final Path task) {
        try {
            String name = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII);
            return name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler");
        } catch (IOException | RuntimeException e) {
            return false; // the thread exited while being read
        }
    }

    /** Reads field 10 of {@code /proc/self/stat}, the minor page faults; -1 when unreadable. */
    static long minorFaults() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
            int afterName = stat.lastIndexOf(')') + 2; // the name may hold spaces and brackets
            List<String> fields = SPACE.splitAsStream(stat.substring(afterName)).toList();
            return Long.parseLong(fields.get(7)); // the fields after the name start at field 3
        } catch (IOException | RuntimeException e) {
            return -1; // not Linux, or an unexpected format
        }
    }

    private static long read(final Path schedstat) {
        try {
            String text = new String(Files.readAllBytes(schedstat), StandardCharsets.US_ASCII);
            int end = text.indexOf(' ');
            return Long.parseLong(end < 0 ? text.trim() : text.substring(0, end));
        } catch (IOException | NumberFormatException e) {
            return -1; // the thread exited while being read
        }
    }
}
