package io.tickwheel.bench.report;

import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.workloads.HostSteal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one-screen summary that opens the report: per workload and headline figure, the best peer,
 * tickwheel's {@code HierarchicalWheelTimer}, their ratio (with the spread of the measured rounds
 * where there were rounds), and what the figure means for the uses tickwheel is for: RPC
 * timeouts, heartbeats, lease renewal, order close. Every headline figure is lower-is-better.
 *
 * <p>Threading: stateless.
 */
public final class Summary {

    /**
     * How far from 1 a full run's ratio may be and still be called on par. It only keeps small
     * differences from being read as wins or losses: tickwheel's W1 medians moved by a few per
     * cent between runs, Netty's by far more (docs/BENCHMARKS.md), which the W1 ratio's range
     * over the rounds shows in each run.
     */
    static final double FULL_TOLERANCE = 0.10;

    /**
     * How far from 1 a quick run's ratio may be and still be called on par. A quick cell is the
     * full run's cell, so it is as noisy as a full run; the band is wider only because a quick
     * reader tends to read one run (docs/BENCHMARKS.md compares quick and full runs).
     */
    static final double QUICK_TOLERANCE = 0.15;

    /** What each workload's headline means for the seeds' uses. */
    private static final Map<String, String> USES = Map.ofEntries(
            Map.entry("W1", "arming a timeout: every RPC call, heartbeat re-arm, lease renewal "
                    + "and order pays it once"),
            Map.entry("W2", "RPC timeouts: one armed per request and cancelled when the answer "
                    + "comes, 10,000 in flight"),
            Map.entry("W3", "heartbeats and lease renewal: how late a due check or renewal runs "
                    + "(peers that fire early are left out)"),
            Map.entry("W4", "a quiet service: CPU the timer burns while nothing is due"),
            Map.entry("W5", "order close: millions of far deadlines pending; CPU per second "
                    + "while none is due"),
            Map.entry("W6", "mass expiry (a partition times out a million heartbeats at once): "
                    + "CPU per fire"),
            Map.entry("W7", "RPC timeouts armed from two threads at once"),
            Map.entry("rpc", "RPC timeouts, end to end"),
            Map.entry("heartbeat", "connection heartbeats re-armed on every read"),
            Map.entry("lease", "lease renewal from the timer's own thread"),
            Map.entry("order-close", "30-minute order close"));

    /**
     * One line of the summary.
     *
     * @param workload the workload id
     * @param measure the headline figure's header, e.g. {@code "cpu ns/op"}
     * @param peer the best peer's id, or null when no peer ran
     * @param peerValue its figure
     * @param ours tickwheel's timer id
     * @param ourValue its figure
     * @param ratio ours over the peer's, NaN when it cannot be taken
     * @param ratioText the ratio as printed, with the rounds' spread when known
     * @param meaning what it means for the seeds' uses, with a verdict
     */
    public record Row(String workload, String measure, String peer, double peerValue, String ours,
            double ourValue, double ratio, String ratioText, String meaning) {
    }

    /** Above this, other processes' CPU during a run makes its figures unquotable (a tenth of a core). */
    private static final double OTHERS_BUSY_CORES = 0.10;
    /** The metric prefix W1 and W2 record the inter-core round trip under (Min and Max). */
    private static final String INTER_CORE = "interCoreRoundTripNs";
    /** Round trips within this factor of each other are one machine state (70 and 320 ns are two). */
    private static final double INTER_CORE_SAME_STATE = 2.0;
    /**
     * Above this share of the cores' time taken by the host during a run ({@link HostSteal}), its
     * figures are the host's rather than the timer's. A judgment from two observations, not a
     * measured threshold: at 0.1-1.5 % (this project's VM when quiet) W3's p99 was about 1.2 ms, at
     * about 20 % it was 10-12 ms with the same jar (docs/BENCHMARKS.md, 2026-11-29).
     */
    static final double STEAL_LIMIT_PCT = 5.0;
    private static final Pattern LEADING_NUMBER = Pattern.compile("^\\d+(\\.\\d+)?");

    private Summary() {
    }

    /**
     * Builds the summary of a run.
     *
     * @param report the results
     * @return one row per workload and headline figure that tickwheel ran
     */
    public static List<Row> of(final Report report) {
        boolean quick = "quick".equals(report.meta().get("mode"));
        List<Row> rows = new ArrayList<>();
        for (Report.Entry w : report.workloads()) {
            Optional<RunResult> ours = report.result(w.id(), TimerCatalog.TICKWHEEL_HIER)
                    .filter(RunResult::ok);
            if (ours.isEmpty()) {
                continue;
            }
            List<String> keys = Columns.ratioKeys(w.id());
            List<String> shown = "W1".equals(w.id()) || "W7".equals(w.id()) ? keys
                    : keys.subList(0, 1);
            for (String key : shown) {
                rows.add(row(report, w.id(), key, ours.get(), quick));
            }
        }
        return rows;
    }

    private static Row row(final Report report, final String w, final String key,
            final RunResult ours, final boolean quick) {
        String measure = Columns.header(w, key);
        double ourValue = ours.num(key);
        Optional<RunResult> peer = bestPeer(report, w, key);
        String use = USES.getOrDefault(w, w);
        if (peer.isEmpty()) {
            return new Row(w, measure, null, Double.NaN, ours.timer(), ourValue, Double.NaN, "-",
                    use + "; no peer ran");
        }
        double peerValue = peer.get().num(key);
        String warning = comparabilityWarning(ours, peer.get());
        // With five rounds a run at most one state has three of each; with more, the largest is shown.
        Optional<StateMatch.Matched> matched = matchedStates(ours, peer.get(), key).stream()
                .max(Comparator.comparingInt(m -> Math.min(m.ourRounds(), m.theirRounds())));
        if (matched.isPresent()) {
            StateMatch.Matched m = matched.get();
            ourValue = m.ours();
            peerValue = m.theirs();
            warning = String.format(Locale.ROOT, "; the host moved the cores during the runs, so the figures are "
                    + "the medians of the rounds both measured with the inter-core round trip at %s (tickwheel "
                    + "%d of %d, the peer %d of %d)", m.state(), m.ourRounds(), m.ourTotal(), m.theirRounds(),
                    m.theirTotal());
        }
        double ratio = ourValue / peerValue;
        String ratioText;
        String verdict;
        double tolerance = quick ? QUICK_TOLERANCE : FULL_TOLERANCE;
        if (peerValue == 0 && ourValue == 0) {
            ratio = 1.0;
            ratioText = "both 0";
            verdict = "both idle";
        } else if (peerValue == 0) {
            ratio = Double.NaN;
            ratioText = "peer 0";
            verdict = "tickwheel spends more (the peer spends nothing)";
        } else {
            ratioText = Fmt.ratio(ratio) + matched.map(m -> " (rounds " + Fmt.ratio(m.ourLow() / m.theirHigh())
                    + "-" + Fmt.ratio(m.ourHigh() / m.theirLow()) + ")").orElse(spread(ours, peer.get(), key));
            verdict = ratio < 1 - tolerance ? "tickwheel lower (better)"
                    : ratio > 1 + tolerance ? "tickwheel higher (worse)"
                    : String.format(Locale.ROOT, "on par (within +/-%.0f %%)", tolerance * 100);
        }
        return new Row(w, measure, peer.get().timer(), peerValue, ours.timer(), ourValue, ratio,
                ratioText, use + ": " + verdict + warning);
    }

    /**
     * Every reason the two runs cannot be compared ({@link #interCoreWarning},
     * {@link #stealWarning(RunResult, RunResult)}), or empty.
     *
     * @param ours tickwheel's run
     * @param peer the peer's run
     * @return the warnings, each starting with "; NOT COMPARABLE: "
     */
    public static String comparabilityWarning(final RunResult ours, final RunResult peer) {
        return interCoreWarning(ours, peer) + stealWarning(ours, peer);
    }

    /**
     * The ratios over the rounds both runs measured in one machine state ({@link StateMatch}), when
     * their rounds as a whole crossed states; empty when they did not, or when the host took the
     * cores during either run, which no choice of rounds undoes.
     *
     * @param ours tickwheel's run
     * @param peer the peer's run
     * @param key the per-round figure
     * @return one ratio per qualifying state, or empty
     */
    static List<StateMatch.Matched> matchedStates(final RunResult ours, final RunResult peer, final String key) {
        if (interCoreWarning(ours, peer).isEmpty() || !stealWarning(ours, peer).isEmpty()) {
            return List.of();
        }
        return StateMatch.of(ours, peer, key);
    }

    /**
     * A warning when the host took more than {@link #STEAL_LIMIT_PCT} of the cores' time during
     * either run; empty when neither did or neither recorded it.
     *
     * @param ours tickwheel's run
     * @param peer the peer's run
     * @return the warning, or empty
     */
    public static String stealWarning(final RunResult ours, final RunResult peer) {
        double our = ours.num(HostSteal.KEY);
        double their = peer.num(HostSteal.KEY);
        if (!(our > STEAL_LIMIT_PCT) && !(their > STEAL_LIMIT_PCT)) {
            return "";
        }
        return String.format(Locale.ROOT, "; NOT COMPARABLE: the host took %s of the cores' time during "
                + "tickwheel's run and %s during the peer's (above %.0f %%, a run's figures are the "
                + "host's): rerun on a quiet host before quoting", percent(our), percent(their),
                STEAL_LIMIT_PCT);
    }

    /**
     * As {@link #stealWarning(RunResult, RunResult)}, for a bar on one run's own figure.
     *
     * @param run the run
     * @return the warning, or empty
     */
    public static String stealWarning(final RunResult run) {
        double steal = run.num(HostSteal.KEY);
        if (!(steal > STEAL_LIMIT_PCT)) {
            return "";
        }
        return String.format(Locale.ROOT, "; NOT COMPARABLE: the host took %s of the cores' time during "
                + "the run (above %.0f %%, its figures are the host's): rerun on a quiet host before "
                + "quoting", percent(steal), STEAL_LIMIT_PCT);
    }

    private static String percent(final double value) {
        return Double.isNaN(value) ? "an unknown share" : String.format(Locale.ROOT, "%.1f %%", value);
    }

    /**
     * A warning when the machine's inter-core round trip (see
     * {@code io.tickwheel.bench.workloads.InterCore}) was more than twice as long in some of the
     * two runs' rounds as in others: the host moved the VM's cores meanwhile, and the figures on
     * either side of that move are not comparable. Empty when the runs did not record it.
     */
    public static String interCoreWarning(final RunResult ours, final RunResult peer) {
        double[] our = extremes(ours, INTER_CORE);
        double[] their = extremes(peer, INTER_CORE);
        if (our == null || their == null) {
            return "";
        }
        double low = Math.min(our[0], their[0]);
        double high = Math.max(our[1], their[1]);
        if (high <= INTER_CORE_SAME_STATE * low) {
            return "";
        }
        return String.format(Locale.ROOT, "; NOT COMPARABLE: the inter-core round trip moved between "
                + "%.0f and %.0f ns (tickwheel %.0f-%.0f, the peer %.0f-%.0f), the host moved the "
                + "cores: rerun before quoting", low, high, our[0], our[1], their[0], their[1]);
    }

    /** The peer with the lowest figure; in W3 only peers that never fired early. */
    private static Optional<RunResult> bestPeer(final Report report, final String w,
            final String key) {
        RunResult best = null;
        for (RunResult r : report.resultsOf(w)) {
            boolean peer = !r.timer().startsWith("tickwheel") && !TimerCatalog.FLOOR.equals(
                    r.timer()) && !TimerCatalog.IDLE_JVM.equals(r.timer());
            boolean early = "W3".equals(w) && r.num("early") > 0;
            double value = r.num(key);
            if (peer && !early && r.ok() && Double.isFinite(value)
                    && (best == null || value < best.num(key))) {
                best = r;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The ratio's range over the measured rounds (our fastest round over the peer's slowest, and
     * the other way round), when both runs recorded their rounds' extremes.
     */
    private static String spread(final RunResult ours, final RunResult peer, final String key) {
        double[] our = extremes(ours, key);
        double[] their = extremes(peer, key);
        if (our == null || their == null) {
            return "";
        }
        return " (rounds " + Fmt.ratio(our[0] / their[1]) + "-" + Fmt.ratio(our[1] / their[0]) + ")";
    }

    /** The rounds' smallest and largest {@code key} (its Min and Max metrics), or null when not both recorded. */
    private static double[] extremes(final RunResult result, final String key) {
        double min = result.num(key + "Min");
        double max = result.num(key + "Max");
        return min > 0 && max > 0 ? new double[] {min, max} : null;
    }

    /**
     * Says how far a figure of this run can be trusted.
     *
     * @param report the results
     * @return one paragraph
     */
    public static String trust(final Report report) {
        return busy(report) + modeNote(report);
    }

    /**
     * A warning when other processes took CPU during the run (measured from /proc/stat), else
     * nothing; where that is unknown, when the load average was high at the start.
     */
    private static String busy(final Report report) {
        Object others = report.meta().get("otherProcessesCores");
        if (others != null) {
            Matcher cores = LEADING_NUMBER.matcher(String.valueOf(others));
            if (cores.find() && Double.parseDouble(cores.group()) > OTHERS_BUSY_CORES) {
                return "The machine was busy (other processes kept " + cores.group() + " cores busy on "
                        + "average during the run): these figures are not to be quoted. ";
            }
            return "";
        }
        Matcher load = LEADING_NUMBER.matcher(String.valueOf(report.meta().get("loadAverage")));
        if (load.find() && Double.parseDouble(load.group()) > 1.0) {
            return "The machine was busy (1-minute load " + load.group() + " at the start): "
                    + "other processes shared its cores, so these figures are not to be quoted. ";
        }
        return "";
    }

    private static String modeNote(final Report report) {
        if ("quick".equals(report.meta().get("mode"))) {
            return String.format(Locale.ROOT, "Quick run: by default four timers on W1-W6, every count at "
                    + "BENCH.md's full size (W4 and W5 idle 1 s instead of 10 s; W7 and the "
                    + "scenarios need --full), so each cell is the full run's cell and differs "
                    + "from it by run-to-run noise only; docs/BENCHMARKS.md has the measured "
                    + "quick-versus-full comparison. Read a ratio within +/-%.0f %% of 1 as on par "
                    + "and quote the full run; the ratios of W1, W2 and W6 carry their range over "
                    + "the 5 rounds, the noise of this very run.", QUICK_TOLERANCE * 100);
        }
        return String.format(Locale.ROOT, "Full run. Ratios within +/-%.0f %% of 1 are read as "
                + "on par: medians move between runs of the same jar (docs/BENCHMARKS.md has the "
                + "measured spread); the ratios of W1, W2, W6 and W7 carry their range over the 5 "
                + "rounds.",
                FULL_TOLERANCE * 100);
    }
}
