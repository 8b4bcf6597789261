package io.tickwheel.bench.workloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How much of the machine's CPU time the host took from this VM (Linux's "steal" time, the eighth
 * figure of {@code /proc/stat}'s {@code cpu} line), as a share of all its cores' time over a window.
 *
 * <p>Why it is measured: on a shared host a VM's virtual CPUs are descheduled now and then, and
 * while one is, nothing on it runs. A timer's lateness (W3) shows that directly: with a fifth of the
 * cores' time stolen, a 1 ms tick's p99 moved from about 1 ms to 10-12 ms on this project's VM
 * (2026-11-29), with the same jar. Such a run says nothing about the timer, and the report has to
 * say so rather than print a MISSED bar. The window is the whole child run, warm-up included,
 * because steal comes in bursts that a run's tail catches wherever they fall.
 *
 * <p>Threading: thread-safe (stateless; each reading parses the file afresh).
 */
public final class HostSteal {

    /** The metric: the share of the cores' time the host took during a child run, in percent. */
    public static final String KEY = "hostStealPct";

    /** {@code /proc/stat} counts in USER_HZ ticks, 100 per second on every Linux ABI Java runs on. */
    private static final double MS_PER_TICK = 10.0;

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private static final Path PROC_STAT = Path.of("/proc/stat");

    private final Path statFile;

    private HostSteal(final Path statFile) {
        this.statFile = statFile;
    }

    /**
     * The machine's own {@code /proc/stat}.
     *
     * @return a reader of it
     */
    public static HostSteal machine() {
        return new HostSteal(PROC_STAT);
    }

    /**
     * A reader of another file in {@code /proc/stat}'s format, for tests.
     *
     * @param statFile the file
     * @return a reader of it
     */
    static HostSteal of(final Path statFile) {
        return new HostSteal(statFile);
    }

    /**
     * One reading: the steal ticks summed over the CPUs, and how many CPUs the file lists.
     *
     * @param ticks steal so far, in USER_HZ ticks
     * @param cpus how many per-CPU lines the file has
     * @param nanos {@link System#nanoTime()} when it was read
     */
    public record Reading(long ticks, int cpus, long nanos) {
    }

    /**
     * Reads the counters now.
     *
     * @return the reading, or null where there is no such file or it has no steal figure (not Linux,
     *     or a kernel too old to count it): then nothing is known about steal
     */
    public Reading read() {
        List<String> lines;
        try {
            lines = Files.readAllLines(statFile, StandardCharsets.US_ASCII);
        } catch (IOException | SecurityException e) {
            return null;
        }
        long nanos = System.nanoTime();
        long ticks = -1;
        int cpus = 0;
        for (String line : lines) {
            String[] fields = WHITESPACE.split(line.trim(), -1);
            if ("cpu".equals(fields[0])) {
                // cpu user nice system idle iowait irq softirq steal ...
                if (fields.length < 9) {
                    return null;
                }
                try {
                    ticks = Long.parseLong(fields[8]);
                } catch (NumberFormatException e) {
                    return null;
                }
            } else if (fields[0].startsWith("cpu")) {
                cpus++;
            }
        }
        return ticks < 0 || cpus == 0 ? null : new Reading(ticks, cpus, nanos);
    }

    /**
     * The share of the cores' time stolen between two readings, in percent.
     *
     * @param from the earlier reading, or null
     * @param to the later reading, or null
     * @return the percentage (0 to 100), or NaN if either reading is missing or no time passed
     */
    public static double percent(final Reading from, final Reading to) {
        if (from == null || to == null || to.nanos() <= from.nanos()) {
            return Double.NaN;
        }
        double stolenMs = (to.ticks() - from.ticks()) * MS_PER_TICK;
        double coreMs = (to.nanos() - from.nanos()) / 1e6 * to.cpus();
        return Math.max(0, Math.min(100, 100 * stolenMs / coreMs));
    }
}
