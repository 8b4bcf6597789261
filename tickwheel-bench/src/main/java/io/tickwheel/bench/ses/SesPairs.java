package io.tickwheel.bench.ses;

import io.tickwheel.bench.workloads.HostSteal;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The executor adapter against the JDK's executor as alternated pairs, in one command: runs
 * {@link SesRounds} for the wheel and for the JDK's executor, each in a fresh JVM, one right after
 * the other, {@code pairs} times, the wheel first in odd pairs and second in even ones (so that
 * whatever favours a position, a cooling core or a page cache, favours neither), and prints each
 * pair's ratio of process CPU per operation and their median. On a shared host the JDK's own
 * figure moves by a third between runs of one jar, so a ratio is only read within a pair (two runs
 * on the same machine state); the spread of the pairs' ratios says how far one pair can be trusted.
 *
 * <p>Usage: {@code SesPairs [pairs] [rounds] [stpe|stpe-remove]} (defaults 5, 7, stpe). The
 * children's flags are {@code -Xms3g -Xmx3g -XX:+UseParallelGC}, or the system property
 * {@code sesPairs.jvmFlags} (space-separated).
 *
 * <p>Threading: not thread-safe; run from one thread. Each child's output is read on this thread.
 */
public final class SesPairs {

    /** The summary line {@link SesRounds} prints last. */
    private static final Pattern MEAN = Pattern.compile(
            "mean of rounds \\d+-\\d+: ([0-9.]+) wall, ([0-9.]+) process CPU, ([0-9.]+) caller CPU ns/op");
    /** As the simulator's limit: above it, a run's figures are the host's (see {@link HostSteal}). */
    static final double STEAL_LIMIT_PCT = 5.0;
    private static final String DEFAULT_FLAGS = "-Xms3g -Xmx3g -XX:+UseParallelGC";
    /** A child's time limit: generous, since a round takes seconds; plus this much per round. */
    private static final long CHILD_TIMEOUT_MINUTES = 5;
    private static final long CHILD_TIMEOUT_MINUTES_PER_ROUND = 1;

    /** One child's means, in ns per operation. */
    record Figures(double wall, double processCpu, double callerCpu) {
    }

    private SesPairs() {
    }

    /**
     * Runs the pairs and prints them.
     *
     * @param args pairs, rounds, peer; each optional
     * @throws Exception if a child cannot be started, fails, or prints no summary
     */
    public static void main(final String[] args) throws Exception {
        int pairs = args.length > 0 ? positive(args[0], "pairs") : 5;
        int rounds = args.length > 1 ? positive(args[1], "rounds") : 7;
        if (rounds <= 2) {
            throw new IllegalArgumentException("rounds must be at least 3 (SesRounds measures all but the first two): "
                    + rounds);
        }
        if (args.length > 3) {
            throw new IllegalArgumentException("usage: SesPairs [pairs] [rounds] [stpe|stpe-remove]; extra: "
                    + String.join(" ", Arrays.asList(args).subList(3, args.length)));
        }
        String peer = args.length > 2 ? args[2] : "stpe";
        if (!peer.equals("stpe") && !peer.equals("stpe-remove")) {
            throw new IllegalArgumentException("peer must be stpe or stpe-remove: " + peer);
        }
        String flagText = System.getProperty("sesPairs.jvmFlags", DEFAULT_FLAGS).trim();
        List<String> flags = flagText.isEmpty() ? List.of() : List.of(flagText.split("\\s+"));
        double[] wheel = new double[pairs];
        double[] jdk = new double[pairs];
        double[] steal = new double[pairs];
        HostSteal host = HostSteal.machine();
        for (int i = 0; i < pairs; i++) {
            HostSteal.Reading before = host.read();
            boolean wheelFirst = i % 2 == 0;
            System.err.printf(Locale.ROOT, "pair %d of %d: %s, then %s (%d rounds each)%n", i + 1, pairs,
                    wheelFirst ? "wheel" : peer, wheelFirst ? peer : "wheel", rounds);
            Figures w;
            Figures j;
            if (wheelFirst) {
                w = runChild(flags, "wheel", rounds);
                j = runChild(flags, peer, rounds);
            } else {
                j = runChild(flags, peer, rounds);
                w = runChild(flags, "wheel", rounds);
            }
            steal[i] = HostSteal.percent(before, host.read());
            wheel[i] = w.processCpu();
            jdk[i] = j.processCpu();
            System.out.printf(Locale.ROOT,
                    "pair %d: wheel %.1f (caller %.1f), %s %.1f (caller %.1f) process CPU ns/op: %.2f x%s%n",
                    i + 1, w.processCpu(), w.callerCpu(), peer, j.processCpu(), j.callerCpu(), wheel[i] / jdk[i],
                    Double.isNaN(steal[i]) ? "" : String.format(Locale.ROOT, " (host steal %.1f %%)", steal[i]));
        }
        System.out.println(summary(wheel, jdk, peer, steal));
    }

    /**
     * The closing lines: the median of the pairs' ratios and their range (how far one pair can be
     * trusted), how far each subject's own figure moved between its runs (what pairing cancels),
     * and the bar.
     *
     * @param wheel the wheel's process CPU per operation, per pair
     * @param jdk the peer's, per pair, in the same order
     * @param peer the peer's name
     * @return the lines
     */
    static String summary(final double[] wheel, final double[] jdk, final String peer) {
        double[] unknown = new double[wheel.length];
        Arrays.fill(unknown, Double.NaN);
        return summary(wheel, jdk, peer, unknown);
    }

    /**
     * As {@link #summary(double[], double[], String)}, with the share of the cores' time the host
     * took during each pair ({@link HostSteal}; NaN where unknown). A pair during which the host
     * took more than {@link #STEAL_LIMIT_PCT} measured the host more than the executors (a
     * fifth of the cores' time stolen moved W3's p99 tenfold), so then the run gives no verdict.
     *
     * @param steal per pair, in percent
     * @return the lines
     */
    static String summary(final double[] wheel, final double[] jdk, final String peer, final double[] steal) {
        if (wheel.length != jdk.length || wheel.length == 0 || steal.length != wheel.length) {
            throw new IllegalArgumentException("need one figure of each per pair: " + wheel.length + ", "
                    + jdk.length + " and " + steal.length + " (steal)");
        }
        double[] ratios = new double[wheel.length];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = wheel[i] / jdk[i];
        }
        double median = median(ratios);
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "median %.3f x the %s's process CPU per operation over %d pairs",
                median, peer, ratios.length));
        if (ratios.length < 3) {
            out.append(String.format(Locale.ROOT, "%nfewer than 3 pairs: nothing says how far one pair can be trusted; "
                    + "run 5 or more%n"));
        } else {
            out.append(String.format(Locale.ROOT, "; the pairs' ratios span %s, which is how far one pair can be "
                    + "trusted%n", spread(ratios, "%.2f")));
        }
        out.append(String.format(Locale.ROOT, "between runs, the %s's own figure moved %s and the wheel's %s "
                + "(what pairing cancels)%n", peer, spread(jdk, "%.1f"), spread(wheel, "%.1f")));
        long stolen = Arrays.stream(steal).filter(p -> p > STEAL_LIMIT_PCT).count();
        double[] known = Arrays.stream(steal).filter(p -> !Double.isNaN(p)).toArray();
        if (known.length > 0) {
            out.append(String.format(Locale.ROOT, "the host took %.1f-%.1f %% of the cores' time during the pairs%n",
                    Arrays.stream(known).min().orElseThrow(), Arrays.stream(known).max().orElseThrow()));
        }
        if (stolen > 0) {
            out.append(String.format(Locale.ROOT, "NOT COMPARABLE: the host took more than %.0f %% of the cores' time "
                    + "in %d of %d pairs, so they measured the host more than the executors; rerun on a quiet host",
                    STEAL_LIMIT_PCT, stolen, steal.length));
        } else if (peer.equals("stpe")) {
            out.append(String.format(Locale.ROOT,
                    "issue 15's bar, no worse than the JDK's executor (median <= 1.000 x): %s",
                    median <= 1.0 ? "met" : "MISSED"));
        } else {
            out.append(String.format(Locale.ROOT, "%s: %s (issue 15's bar is against the default executor, 'stpe')",
                    median <= 1.0 ? "no worse than it" : "worse than it", peer));
        }
        return out.toString();
    }

    /** The median of {@code values} (the mean of the middle two for an even count). */
    static double median(final double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** "min-max (p %)", each bound in {@code format}, p the range over the minimum. */
    static String spread(final double[] values, final String format) {
        double min = Arrays.stream(values).min().orElseThrow();
        double max = Arrays.stream(values).max().orElseThrow();
        return String.format(Locale.ROOT, format + "-" + format + " (%.0f %%)", min, max, 100 * (max - min) / min);
    }

    /**
     * The figures of {@link SesRounds}' summary line, the last one in {@code lines}.
     *
     * @throws IllegalStateException if there is none
     */
    static Figures parse(final List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            Matcher m = MEAN.matcher(lines.get(i));
            if (m.find()) {
                return new Figures(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
                        Double.parseDouble(m.group(3)));
            }
        }
        throw new IllegalStateException("SesRounds printed no summary line; its output was:\n"
                + String.join("\n", lines));
    }

    private static Figures runChild(final List<String> flags, final String subject, final int rounds)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SesRounds.class.getName());
        command.add(subject);
        command.add(Integer.toString(rounds));
        long limitMinutes = CHILD_TIMEOUT_MINUTES + CHILD_TIMEOUT_MINUTES_PER_ROUND * rounds;
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            List<String> lines = Collections.synchronizedList(new ArrayList<>());
            // Read on a thread of its own, so a child that hangs is killed by the timeout below rather
            // than leaving this thread blocked on its pipe (and a child never blocks on a full one).
            Thread reader = new Thread(() -> copy(child, subject, lines), "ses-pairs-" + subject);
            reader.setDaemon(true);
            reader.start();
            boolean exited = child.waitFor(limitMinutes, TimeUnit.MINUTES);
            if (!exited) {
                child.destroyForcibly().waitFor();
            }
            reader.join(TimeUnit.SECONDS.toMillis(10)); // the pipe closes when the child exits
            List<String> output;
            synchronized (lines) {
                output = List.copyOf(lines);
            }
            if (!exited) {
                throw new IllegalStateException(subject + " did not exit within " + limitMinutes + " minutes; "
                        + "its output so far:\n" + String.join("\n", output));
            }
            if (child.exitValue() != 0) {
                throw new IllegalStateException(subject + " exited with status " + child.exitValue() + ":\n"
                        + String.join("\n", output));
            }
            return parse(output);
        } finally {
            if (child.isAlive()) {
                child.destroyForcibly(); // interrupted, or anything else thrown: no 3 GB JVM left behind
            }
        }
    }

    /** Copies the child's output into {@code lines} and, indented, to stderr as progress. */
    private static void copy(final Process child, final String subject, final List<String> lines) {
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
                System.err.println("  " + subject + ": " + line);
            }
        } catch (IOException e) {
            lines.add("(the child's output could not be read: " + e + ")");
        }
    }

    private static int positive(final String value, final String name) {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number: " + value, e);
        }
        if (n < 1) {
            throw new IllegalArgumentException(name + " must be at least 1: " + value);
        }
        return n;
    }
}
