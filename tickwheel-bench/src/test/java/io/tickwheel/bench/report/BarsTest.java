package io.tickwheel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** BENCH.md's bars on hand-made results: a ratio across two machine states is not claimed. */
class BarsTest {

    private static RunResult result(final String workload, final String timer, final String... keysAndValues) {
        Map<String, String> metrics = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            metrics.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new RunResult(workload, timer, metrics, null, 1.0);
    }

    private static Report report(final RunResult... results) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("mode", "full");
        List<Report.Entry> workloads = new ArrayList<>();
        workloads.add(new Report.Entry("W2", "churn", "W2", false));
        List<Report.Entry> timers = List.of(new Report.Entry("tickwheel-hier-1ms", "", "", false),
                new Report.Entry("netty41-1ms", "", "", false));
        return new Report(meta, workloads, timers, List.of(results));
    }

    private static Bars.Bar w2(final Report r) {
        return Bars.evaluate(r).stream().filter(b -> b.workload().equals("W2") && b.text().contains("0.6 x"))
                .findFirst().orElseThrow();
    }

    @Test
    void w2_acrossTwoMachineStates_isNotComparable_notMet() {
        Report r = report(
                result("W2", "tickwheel-hier-1ms", "cpuNsPerOp", "56.8", "interCoreRoundTripNsMin", "65",
                        "interCoreRoundTripNsMax", "67"),
                result("W2", "netty41-1ms", "cpuNsPerOp", "245.9", "interCoreRoundTripNsMin", "310",
                        "interCoreRoundTripNsMax", "330"));

        Bars.Bar bar = w2(r);
        assertThat(bar.known()).isTrue();
        assertThat(bar.met()).as("0.23 x, but Netty ran with the cores far apart").isFalse();
        assertThat(bar.comparable()).isFalse();
        assertThat(bar.status()).isEqualTo("NOT COMPARABLE");
        assertThat(bar.detail()).contains("0.23 x", "NOT COMPARABLE", "the peer 310-330");
        // The stdout table once printed "NOT COMPARABLEW2 process CPU ...": the status outgrew its column.
        assertThat(ResultTable.render(r, List.of(bar))).contains("  NOT COMPARABLE W2 process CPU");
    }

    @Test
    void w2_inOneMachineState_isJudgedByItsRatio() {
        Report missed = report(
                result("W2", "tickwheel-hier-1ms", "cpuNsPerOp", "56.8", "interCoreRoundTripNsMin", "65",
                        "interCoreRoundTripNsMax", "67"),
                result("W2", "netty41-1ms", "cpuNsPerOp", "63.3", "interCoreRoundTripNsMin", "66",
                        "interCoreRoundTripNsMax", "70"));
        Report met = report(
                result("W2", "tickwheel-hier-1ms", "cpuNsPerOp", "73.0", "interCoreRoundTripNsMin", "305",
                        "interCoreRoundTripNsMax", "320"),
                result("W2", "netty41-1ms", "cpuNsPerOp", "180.0", "interCoreRoundTripNsMin", "310",
                        "interCoreRoundTripNsMax", "330"));

        assertThat(w2(missed).status()).isEqualTo("MISSED");
        assertThat(w2(met).status()).isEqualTo("met");
        assertThat(w2(met).comparable()).isTrue();
    }
}
