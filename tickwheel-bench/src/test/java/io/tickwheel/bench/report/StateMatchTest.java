package io.tickwheel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Two runs compared over the rounds they measured in one machine state. */
class StateMatchTest {

    private static RunResult w2(final String timer, final String cpuRounds, final String tripRounds,
            final String... more) {
        Map<String, String> metrics = new LinkedHashMap<>();
        double[] cpu = parse(cpuRounds);
        double[] trips = parse(tripRounds);
        metrics.put("cpuNsPerOp", Double.toString(StateMatch.median(cpu)));
        metrics.put("cpuNsPerOpRounds", cpuRounds);
        metrics.put("interCoreRoundTripNsMin", Double.toString(java.util.Arrays.stream(trips).min().orElseThrow()));
        metrics.put("interCoreRoundTripNsMax", Double.toString(java.util.Arrays.stream(trips).max().orElseThrow()));
        metrics.put("interCoreRoundTripNsRounds", tripRounds);
        for (int i = 0; i + 1 < more.length; i += 2) {
            metrics.put(more[i], more[i + 1]);
        }
        return new RunResult("W2", timer, metrics, null, 1.0);
    }

    private static double[] parse(final String list) {
        return java.util.Arrays.stream(list.split(",")).mapToDouble(Double::parseDouble).toArray();
    }

    /** Netty's rounds as in a quick run of 2026-11-29: near twice, far three times. */
    private static final RunResult OURS_NEAR = w2("tickwheel-hier-1ms", "67.4,66.0,70.2,68.1,69.9", "70,66,71,68,64");
    private static final RunResult PEER_SPLIT = w2("netty41-1ms", "62.0,151.2,149.0,64.0,160.3", "66,339,449,70,402");

    @Test
    void aPeerWithTwoRoundsInTheOursState_isComparedOverThoseRounds() {
        Optional<StateMatch.Matched> m = StateMatch.of(OURS_NEAR, PEER_SPLIT, "cpuNsPerOp");

        assertThat(m).isPresent();
        assertThat(m.get().state()).isEqualTo("64-71 ns");
        assertThat(m.get().ourRounds()).isEqualTo(5);
        assertThat(m.get().theirRounds()).isEqualTo(2);
        assertThat(m.get().ours()).isEqualTo(68.1);
        assertThat(m.get().theirs()).as("the mean of the middle two of 62.0 and 64.0").isEqualTo(63.0);
        assertThat(m.get().ratio()).isCloseTo(68.1 / 63.0, within(1e-12));
        assertThat(m.get().describe("%.1f")).contains("round trip at 64-71 ns (tickwheel 5 of 5, the peer 2 of 5)",
                "1.08 x");
    }

    @Test
    void oneRoundInAState_isNoMedian_andSoNoMatch() {
        RunResult peer = w2("netty41-1ms", "62.0,151.2,149.0,155.0,160.3", "66,339,449,410,402");

        assertThat(StateMatch.of(OURS_NEAR, peer, "cpuNsPerOp")).isEmpty();
    }

    @Test
    void theStateWithMoreRoundsWins_amongAsManyStatesAsTheRoundsShow() {
        RunResult ours = w2("tickwheel-hier-1ms", "70,72,90,91,92", "66,70,330,340,350");
        RunResult peer = w2("netty41-1ms", "60,62,150,151,152", "64,68,335,345,355");
        // Both threads on one core's siblings (28 ns), near (65) and far (330): three states.
        RunResult sibling = w2("tickwheel-hier-1ms", "50,51,70,72,90", "27,29,66,70,330");
        RunResult mixed = w2("netty41-1ms", "40,41,60,150,151", "28,30,64,335,345");

        StateMatch.Matched m = StateMatch.of(ours, peer, "cpuNsPerOp").orElseThrow();
        assertThat(m.state()).as("3 + 3 far rounds against 2 + 2 near ones").isEqualTo("330-355 ns");
        assertThat(m.ratio()).isCloseTo(91.0 / 151.0, within(1e-12));
        StateMatch.Matched s = StateMatch.of(sibling, mixed, "cpuNsPerOp").orElseThrow();
        assertThat(s.state()).as("near has only one round of the peer's; far one of ours").isEqualTo("27-30 ns");
        assertThat(s.ratio()).isCloseTo(50.5 / 40.5, within(1e-12));
    }

    @Test
    void runsWithoutTheirRounds_orWithBrokenLists_doNotMatch() {
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

    @Test
    void theBarAndTheSummary_judgeTheMatchedRounds_andSaySo() {
        Report r = report(OURS_NEAR, PEER_SPLIT);

        Bars.Bar bar = Bars.evaluate(r).stream().filter(b -> b.workload().equals("W2") && b.text().contains("0.6 x"))
                .findFirst().orElseThrow();
        assertThat(bar.comparable()).isTrue();
        assertThat(bar.status()).as("1.08 x over the near rounds, not 0.45 x over all").isEqualTo("MISSED");
        assertThat(bar.detail()).contains("over all rounds, across two machine states",
                "round trip at 64-71 ns (tickwheel 5 of 5, the peer 2 of 5)");
        Summary.Row row = Summary.of(r).get(0);
        assertThat(row.ratio()).isCloseTo(68.1 / 63.0, within(1e-12));
        assertThat(row.peerValue()).isEqualTo(63.0);
        assertThat(row.meaning()).contains("on par (within +/-15 %)", "the host moved the cores during the runs",
                "round trip at 64-71 ns (tickwheel 5 of 5, the peer 2 of 5)").doesNotContain("NOT COMPARABLE");
    }

    @Test
    void aHostThatTookTheCores_isNeverMatchedAway() {
        RunResult stolen = w2("netty41-1ms", "62.0,151.2,149.0,64.0,160.3", "66,339,449,70,402",
                "hostStealPct", "12.5");
        Report r = report(OURS_NEAR, stolen);

        Bars.Bar bar = Bars.evaluate(r).stream().filter(b -> b.workload().equals("W2") && b.text().contains("0.6 x"))
                .findFirst().orElseThrow();
        assertThat(bar.status()).isEqualTo("NOT COMPARABLE");
        assertThat(Summary.of(r).get(0).meaning()).contains("NOT COMPARABLE", "12.5 %");
    }
}
