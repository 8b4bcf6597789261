package io.tickwheel.bench.report;

import io.tickwheel.bench.timers.TimerCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The bars of BENCH.md, checked against one run's results: for tickwheel's
 * {@code HierarchicalWheelTimer} against Netty 4.1 at 1 ms and against absolute limits, and for
 * tickwheel's {@code HashedWheelTimer} against Netty 4.1 at the same tick. A bar whose figures
 * did not run is reported as not known rather than met or missed.
 *
 * <p>Threading: stateless.
 */
public final class Bars {

    private static final String HIER = TimerCatalog.TICKWHEEL_HIER;
    private static final String NETTY = TimerCatalog.NETTY_41_1MS;

    /**
     * One bar and how the run did against it.
     *
     * @param workload the workload id
     * @param text the bar, as BENCH.md words it
     * @param known whether the figures it needs were measured
     * @param met whether it was met (never when not comparable)
     * @param comparable false when the runs met different machine states or a host that took much
     *     of the cores' time (see {@link Summary#comparabilityWarning}), so the run can say nothing
     *     about the bar
     * @param detail the figures
     */
    public record Bar(String workload, String text, boolean known, boolean met, boolean comparable,
            String detail) {

        /** How the bar is reported: met, MISSED, or NOT COMPARABLE. */
        public String status() {
            return !comparable ? "NOT COMPARABLE" : met ? "met" : "MISSED";
        }
    }

    private Bars() {
    }

    /**
     * Checks every bar.
     *
     * @param r the results
     * @return every bar, in BENCH.md's order
     */
    public static List<Bar> evaluate(final Report r) {
        List<Bar> bars = new ArrayList<>();
        bars.add(ratio(r, "W1", "cpuNsPerOp", HIER, NETTY, 0.7,
                "process CPU ns/schedule <= 0.7 x Netty's"));
        bars.add(ratio(r, "W1", "wallNsPerOp", HIER, NETTY, 1.0, "wall ns/op <= Netty's"));
        bars.add(limit(r, "W1", "bytesPerTimeout", HIER, 40, "<= 40 bytes per pending timeout"));
        bars.add(ratio(r, "W2", "cpuNsPerOp", HIER, NETTY, 0.6,
                "process CPU ns/op <= 0.6 x Netty's"));
        bars.add(limit(r, "W2", "bytesPerOutstanding", HIER, 1024, "heap retained after the run "
                + "does not grow with the op count (<= 1 KB per outstanding timeout)"));
        bars.add(limit(r, "W3", "early", HIER, 0, "never early"));
        bars.add(limit(r, "W3", "missing", HIER, 0, "nothing missing"));
        bars.add(timing(r, "W3", "latenessP99Ms", HIER, 2, "p99 <= 2 ms"));
        bars.add(timing(r, "W3", "latenessP999Ms", HIER, 4, "p99.9 <= 4 ms"));
        bars.add(limit(r, "W4", "timerThreadCpuMsPerSec", HIER, 0.1,
                "timer-thread CPU <= 0.1 ms per idle second"));
        bars.add(limit(r, "W5", "timerThreadCpuMsPerSec", HIER, 0.1,
                "timer-thread CPU <= 0.1 ms/s with the far set pending"));
        bars.add(ratio(r, "W6", "cpuNsPerFire", HIER, NETTY, 0.5,
                "process CPU per fire <= 0.5 x Netty's"));
        bars.add(timing(r, "W6", "lastFireMinusLastDeadlineMs", HIER, 2,
                "last fire <= 2 ms after the last deadline"));
        bars.add(ratio(r, "W7", "scheduleCpuNsPerOp", HIER, NETTY, 0.7,
                "2 producers, W1: process CPU ns/op <= 0.7 x Netty's"));
        bars.add(ratio(r, "W7", "churnCpuNsPerOp", HIER, NETTY, 0.7,
                "2 producers, W2: process CPU ns/op <= 0.7 x Netty's"));
        hashed(r, bars, "tickwheel-hashed-1ms", NETTY);
        hashed(r, bars, "tickwheel-hashed-100ms", "netty41-100ms");
        return bars;
    }

    private static void hashed(final Report r, final List<Bar> bars, final String ours,
            final String theirs) {
        String vs = " of " + ours + " <= " + theirs + "'s";
        for (String w : List.of("W1", "W2", "W3", "W6", "W7")) {
            for (String key : Columns.ratioKeys(w)) {
                bars.add(ratio(r, w, key, ours, theirs, 1.0,
                        "HashedWheelTimer: " + Columns.header(w, key) + vs));
            }
        }
        for (String w : List.of("W4", "W5")) {
            bars.add(ratio(r, w, "timerThreadCpuMsPerSec", ours, theirs, 0.1,
                    "HashedWheelTimer: timer-thread CPU of " + ours + " <= 1/10 of " + theirs
                            + "'s"));
        }
    }

    private static Bar ratio(final Report r, final String w, final String key, final String timer,
            final String base, final double max, final String text) {
        double ratio = r.ratio(w, timer, key, base);
        if (Double.isNaN(ratio)) {
            return new Bar(w, text, false, false, true, "not measured in this run");
        }
        RunResult ours = r.result(w, timer).orElseThrow(); // a ratio was taken: both ran
        RunResult theirs = r.result(w, base).orElseThrow();
        String detail = String.format(Locale.ROOT, "%s %s vs %s %s = %s x", timer, Fmt.num(ours.num(key), 3),
                base, Fmt.num(theirs.num(key), 3), Fmt.ratio(ratio));
        String crossed = Summary.comparabilityWarning(ours, theirs);
        if (crossed.isEmpty()) {
            return new Bar(w, text, true, ratio <= max, true, detail);
        }
        List<StateMatch.Matched> matched = Summary.matchedStates(ours, theirs, key);
        if (matched.isEmpty()) {
            return new Bar(w, text, true, false, false, detail + crossed);
        }
        boolean allMet = matched.stream().allMatch(m -> m.ratio() <= max);
        boolean noneMet = matched.stream().noneMatch(m -> m.ratio() <= max);
        String over = detail + " over all rounds, which met " + StateMatch.stateCount(ours, theirs)
                + " machine states; " + String.join("; ", matched.stream().map(m -> m.describe("%.3f")).toList());
        if (!allMet && !noneMet) {
            return new Bar(w, text, true, false, false, over + "; NOT COMPARABLE: the states disagree");
        }
        return new Bar(w, text, true, allMet, true, over);
    }

    /**
     * A limit on how late something happened, which a host that takes the cores away moves by
     * itself: a miss is not comparable when the host took much of the cores' time during the run.
     * A limit met under steal stays met (steal only makes fires later). Correctness limits (never
     * early, nothing missing) stay plain limits: no host excuses those.
     */
    private static Bar timing(final Report r, final String w, final String key, final String timer,
            final double max, final String text) {
        Bar bar = limit(r, w, key, timer, max, text);
        String stolen = r.result(w, timer).map(Summary::stealWarning).orElse("");
        if (!bar.known() || bar.met() || stolen.isEmpty()) {
            return bar;
        }
        return new Bar(w, text, true, false, false, bar.detail() + stolen);
    }

    private static Bar limit(final Report r, final String w, final String key, final String timer,
            final double max, final String text) {
        double value = r.result(w, timer).filter(RunResult::ok).map(x -> x.num(key))
                .orElse(Double.NaN);
        if (Double.isNaN(value)) {
            return new Bar(w, text, false, false, true, "not measured in this run");
        }
        return new Bar(w, text, true, value <= max, true, timer + " " + Fmt.num(value, 3));
    }
}
