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
 * say so rather than print a MISSED bar. W3 and W6 read it over their measured window, where their
 * lateness is measured; every other workload over its whole child run.
 *
 * <p>Threading: thread-safe (stateless; each reading parses the file afresh).
 */
public final class HostSteal {

    /** The metric: the share of the cores' time the host took during a child run, in percent. */
    public static final String KEY = "hostStealPct";

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
     * One reading of the {@code cpu} line, which sums every CPU.
     *
     * @param steal the steal time so far, in the kernel's ticks
     * @param total every kind of time so far (user, nice, system, idle, iowait, irq, softirq,
     *     steal), in the same ticks: the cores' whole time, so that a share needs neither the tick's
     *     length nor the CPU count nor a clock
     */
    public record Reading(long steal, long total) {
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
        for (String line : lines) {
            String[] fields = WHITESPACE.split(line.trim(), -1);
            if (!"cpu".equals(fields[0])) {
                continue;
            }
            // cpu user nice system idle iowait irq softirq steal [guest guest_nice]; guest time is
            // already counted in user and nice, so the first eight are the whole.
            if (fields.length < 9) {
                return null;
            }
            long total = 0;
            try {
                for (int i = 1; i <= 8; i++) {
                    total += Long.parseLong(fields[i]);
                }
                return new Reading(Long.parseLong(fields[8]), total);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /**
     * The share of the cores' time stolen between two readings, in percent.
     *
     * @param from the earlier reading, or null
     * @param to the later reading, or null
     * @return the percentage (0 to 100), or NaN if either reading is missing or no tick passed
     */
    public static double percent(final Reading from, final Reading to) {
        if (from == null || to == null || to.total() <= from.total()) {
            return Double.NaN;
        }
        double share = (double) (to.steal() - from.steal()) / (to.total() - from.total());
        return Math.max(0, Math.min(100, 100 * share));
    }
}
