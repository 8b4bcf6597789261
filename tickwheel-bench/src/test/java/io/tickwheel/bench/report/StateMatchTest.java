package io.tickwheel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Two runs compared over the rounds they measured in one machine state. */
class StateMatchTest {

    private static RunResult w2(final String timer, final String cpuRounds, final String tripRounds,
            final String... more) {
        Map<String, String> metrics = new LinkedHashMap<>();
        double[] trips = parse(tripRounds);
        metrics.put("cpuNsPerOp", Double.toString(StateMatch.median(parse(cpuRounds))));
        metrics.put("cpuNsPerOpRounds", cpuRounds);
        metrics.put("interCoreRoundTripNsMin", Double.toString(Arrays.stream(trips).filter(t -> t > 0).min()
                .orElseThrow()));
        metrics.put("interCoreRoundTripNsMax", Double.toString(Arrays.stream(trips).max().orElseThrow()));
        metrics.put("interCoreRoundTripNsRounds", tripRounds);
        for (int i = 0; i + 1 < more.length; i += 2) {
            metrics.put(more[i], more[i + 1]);
        }
        return new RunResult("W2", timer, metrics, null, 1.0);
    }

    private static double[] parse(final String list) {
        return Arrays.stream(list.split(",")).mapToDouble(Double::parseDouble).toArray();
    }

    /** Ours all near; Netty's rounds near three times, far twice. */
    private static final RunResult OURS_NEAR = w2("tickwheel-hier-1ms", "67.4,66.0,70.2,68.1,69.9", "70,66,71,68,64");
    private static final RunResult PEER_SPLIT = w2("netty41-1ms", "62.0,151.2,61.0,64.0,160.3", "66,339,72,70,402");

    @Test
    void aPeerWithThreeRoundsInOursState_isComparedOverThoseRounds() {
        List<StateMatch.Matched> all = StateMatch.of(OURS_NEAR, PEER_SPLIT, "cpuNsPerOp");

        assertThat(all).hasSize(1);
        StateMatch.Matched m = all.get(0);
        assertThat(m.state()).isEqualTo("64-72 ns");
        assertThat(m.ourRounds()).isEqualTo(5);
        assertThat(m.theirRounds()).isEqualTo(3);
        assertThat(m.ours()).isEqualTo(68.1);
        assertThat(m.theirs()).isEqualTo(62.0);
        assertThat(m.ratio()).isCloseTo(68.1 / 62.0, within(1e-12));
        assertThat(m.describe("%.1f")).contains("round trip at 64-72 ns (tickwheel 5 of 5, the peer 3 of 5)", "1.10 x");
        assertThat(StateMatch.stateCount(OURS_NEAR, PEER_SPLIT)).isEqualTo(2);
    }

    @Test
    void twoRoundsInAState_areNoMedianOfThree_andSoNoMatch() {
        RunResult peer = w2("netty41-1ms", "62.0,151.2,149.0,64.0,160.3", "66,339,449,70,402");

        assertThat(StateMatch.of(OURS_NEAR, peer, "cpuNsPerOp")).isEmpty();
    }

    @Test
    void threeStates_failedMeasurements_andTheEdgeAtTwice() {
        // Siblings (about 28 ns), near (65) and far (330); -1 is a failed measurement, in no state.
        RunResult sibling = w2("tickwheel-hier-1ms", "50,51,52,70,90", "27,29,28,-1,330");
        RunResult mixed = w2("netty41-1ms", "40,41,42,60,150", "28,30,54,64,335");

        List<StateMatch.Matched> all = StateMatch.of(sibling, mixed, "cpuNsPerOp");
        assertThat(all).singleElement().satisfies(m -> {
            assertThat(m.state()).as("54 is exactly twice 27: the same state").isEqualTo("27-54 ns");
            assertThat(m.ourRounds()).isEqualTo(3);
            assertThat(m.theirRounds()).isEqualTo(3);
            assertThat(m.ratio()).isCloseTo(51.0 / 41.0, within(1e-12));
        });
        assertThat(StateMatch.stateCount(sibling, mixed)).isEqualTo(3);
    }

    @Test
    void runsWithoutTheirRounds_orWithBrokenLists_doNotMatch_butRunsOfOtherLengthsDo() {
        Map<String, String> bare = new LinkedHashMap<>(OURS_NEAR.metrics());
        bare.remove("cpuNsPerOpRounds");
        Map<String, String> shorter = new LinkedHashMap<>(OURS_NEAR.metrics());
        shorter.put("cpuNsPerOpRounds", "67.4,66.0");
        Map<String, String> broken = new LinkedHashMap<>(OURS_NEAR.metrics());
        broken.put("interCoreRoundTripNsRounds", "70,x,71,68,64");
        for (Map<String, String> metrics : List.of(bare, shorter, broken)) {
            RunResult ours = new RunResult("W2", "tickwheel-hier-1ms", metrics, null, 1.0);
            assertThat(StateMatch.of(ours, PEER_SPLIT, "cpuNsPerOp")).isEmpty();
        }
        RunResult three = w2("tickwheel-hier-1ms", "67,66,70", "70,66,71");
        assertThat(StateMatch.of(three, PEER_SPLIT, "cpuNsPerOp")).singleElement()
                .satisfies(m -> assertThat(m.ourTotal()).isEqualTo(3));
    }

    private static Report report(final RunResult... results) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("mode", "quick");
        List<Report.Entry> workloads = new ArrayList<>();
        workloads.add(new Report.Entry("W2", "churn", "W2", false));
        List<Report.Entry> timers = List.of(new Report.Entry("tickwheel-hier-1ms", "", "", false),
                new Report.Entry("netty41-1ms", "", "", false));
        return new Report(meta, workloads, timers, List.of(results));
    }

    private static Bars.Bar w2Bar(final Report r) {
        return Bars.evaluate(r).stream().filter(b -> b.workload().equals("W2") && b.text().contains("0.6 x"))
                .findFirst().orElseThrow();
    }

    @Test
    void theBarAndTheSummary_judgeTheMatchedRounds_andSaySo() {
        Report r = report(OURS_NEAR, PEER_SPLIT);

        Bars.Bar bar = w2Bar(r);
        assertThat(bar.comparable()).isTrue();
        assertThat(bar.status()).as("1.10 x over the near rounds").isEqualTo("MISSED");
        assertThat(bar.detail()).contains("over all rounds, which met 2 machine states",
                "round trip at 64-72 ns (tickwheel 5 of 5, the peer 3 of 5)");
        Summary.Row row = Summary.of(r).get(0);
        assertThat(row.ratio()).isCloseTo(68.1 / 62.0, within(1e-12));
        assertThat(row.peerValue()).isEqualTo(62.0);
        assertThat(row.meaning()).contains("on par (within +/-15 %)", "the host moved the cores during the runs",
                "round trip at 64-72 ns (tickwheel 5 of 5, the peer 3 of 5)").doesNotContain("NOT COMPARABLE");
    }

    @Test
    void aBarNotComparableOverAllRounds_isMetOverTheMatchedOnes() {
        // Netty's far rounds make it look slow, ours are all near: 0.45 x over all, 0.55 x when matched.
        RunResult ours = w2("tickwheel-hier-1ms", "34,35,36,33,34", "66,70,68,71,64");
        RunResult peer = w2("netty41-1ms", "62,150,63,61,160", "66,339,72,70,402");

        Bars.Bar bar = w2Bar(report(ours, peer));
        assertThat(bar.status()).isEqualTo("met");
        assertThat(bar.detail()).contains("34.000 vs 62.000 = 0.55 x");
    }

    @Test
    void statesThatDisagree_leaveTheBarNotComparable() {
        // Six rounds each, three near and three far: met near (0.50 x), missed far (0.80 x).
        RunResult ours = w2("tickwheel-hier-1ms", "30,29,31,80,81,82", "66,70,68,330,340,350");
        RunResult peer = w2("netty41-1ms", "60,59,61,100,101,102", "64,72,69,335,345,355");

        Bars.Bar bar = w2Bar(report(ours, peer));
        assertThat(bar.status()).isEqualTo("NOT COMPARABLE");
        assertThat(bar.detail()).contains("0.50 x", "0.80 x", "the states disagree");
    }

    @Test
    void aHostThatTookTheCores_isNeverMatchedAway() {
        RunResult stolen = w2("netty41-1ms", "62.0,151.2,61.0,64.0,160.3", "66,339,72,70,402",
                "hostStealPct", "12.5");
        Report r = report(OURS_NEAR, stolen);

        assertThat(w2Bar(r).status()).isEqualTo("NOT COMPARABLE");
        assertThat(Summary.of(r).get(0).meaning()).contains("NOT COMPARABLE", "12.5 %");
    }
}
