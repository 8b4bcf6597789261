package io.tickwheel.bench.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The CPU time of every thread of this process in nanoseconds, from Linux's
 * {@code /proc/self/task/<tid>/schedstat}, grouped by who spent it: the calling thread, the
 * timer's threads (named {@value #TIMER_THREAD}), the garbage collector, the JIT compilers and
 * the rest. Independent of the simulator's own instruments on purpose. Linux only.
 *
 * <p>Threading: thread-safe (stateless; snapshots are immutable).
 */
final class ThreadCpu {

    /** The name the probe gives its timers' threads (fits Linux's 15-character thread name). */
    static final String TIMER_THREAD = "probetimer";

    private static final Pattern SPACE = Pattern.compile(" ");
    private static final Path TASKS = Path.of("/proc/self/task");

    private ThreadCpu() {
    }

    /** Reads every thread's CPU time and name; the caller is the "main" thread. */
    static Snapshot snapshot() {
        String self = selfTid();
        Map<String, Long> cpu = new HashMap<>();
        Map<String, String> names = new HashMap<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(TASKS)) {
            for (Path task : dir) {
                String tid = String.valueOf(task.getFileName());
                long nanos = read(task.resolve("schedstat"));
                if (nanos >= 0) {
                    cpu.put(tid, nanos);
                    names.put(tid, name(task));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + TASKS, e);
        }
        return new Snapshot(self, cpu, names);
    }

    /**
     * Reads the process's minor page faults so far (field 10 of {@code /proc/self/stat}): a
     * first touch of a heap page the JVM reserved but never used costs one.
     *
     * @return the count
     */
    static long minorFaults() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
            List<String> fields = SPACE.splitAsStream(stat.substring(stat.lastIndexOf(')') + 2))
                    .toList();
            return Long.parseLong(fields.get(7)); // the fields after the name start at field 3
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/self/stat", e);
        }
    }

    private static String selfTid() {
        try {
            return String.valueOf(Files.readSymbolicLink(Path.of("/proc/thread-self"))
                    .getFileName());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/thread-self", e);
        }
    }

    private static String name(final Path task) {
        try {
            return Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            return "?"; // exited meanwhile
        }
    }

    private static long read(final Path schedstat) {
        try {
            String text = Files.readString(schedstat, StandardCharsets.US_ASCII);
            int end = text.indexOf(' ');
            return Long.parseLong(end < 0 ? text.trim() : text.substring(0, end));
        } catch (IOException | NumberFormatException e) {
            return -1; // the thread exited while being read
        }
    }

    /**
     * One reading of every thread.
     *
     * @param self the calling thread's id
     * @param cpu CPU nanoseconds per thread id
     * @param names the name per thread id
     */
    record Snapshot(String self, Map<String, Long> cpu, Map<String, String> names) {

        /**
         * The CPU spent since an earlier snapshot; a thread absent before counts from zero, one
         * that exited since keeps its earlier value (its CPU inside the interval is lost; the
         * probe starts no thread inside a measured loop but the timer's own).
         *
         * @param before the earlier snapshot, taken on the same thread
         * @return total, calling thread, timer threads, GC, JIT, other, in nanoseconds
         */
        long[] minus(final Snapshot before) {
            long[] sums = new long[6];
            for (Map.Entry<String, Long> e : cpu.entrySet()) {
                long delta = e.getValue() - before.cpu.getOrDefault(e.getKey(), 0L);
                String name = names.getOrDefault(e.getKey(), "?");
                int group;
                if (e.getKey().equals(self)) {
                    group = 1;
                } else if (name.startsWith(TIMER_THREAD)) {
                    group = 2;
                } else if (name.startsWith("GC Thread") || name.startsWith("VM Thread")) {
                    group = 3;
                } else if (name.contains("CompilerThre")) {
                    group = 4;
                } else {
                    group = 5;
                }
                sums[0] += delta;
                sums[group] += delta;
            }
            return sums;
        }
    }
}
