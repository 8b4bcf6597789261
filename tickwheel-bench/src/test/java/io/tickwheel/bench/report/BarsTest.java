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

    private static Report w3(final RunResult... results) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("mode", "quick");
        List<Report.Entry> workloads = List.of(new Report.Entry("W3", "accuracy", "W3", false));
        List<Report.Entry> timers = List.of(new Report.Entry("tickwheel-hier-1ms", "", "", false),
                new Report.Entry("netty41-1ms", "", "", false));
        return new Report(meta, workloads, timers, List.of(results));
    }

    private static Bars.Bar w3Bar(final Report r, final String text) {
        return Bars.evaluate(r).stream().filter(b -> b.workload().equals("W3") && b.text().equals(text))
                .findFirst().orElseThrow();
    }

    @Test
    void w3_lateness_onAHostThatTookAFifthOfTheCores_isNotComparable_butEarlyFiresStillCount() {
        // The figures of a real run on 2026-11-29 with about 20 % steal: p99 10.25 ms.
        Report r = w3(
                result("W3", "tickwheel-hier-1ms", "latenessP99Ms", "10.25", "latenessP999Ms", "23.05",
                        "early", "3", "missing", "0", "hostStealPct", "19.6"),
                result("W3", "netty41-1ms", "latenessP99Ms", "9.80", "early", "0", "missing", "0",
                        "hostStealPct", "1.2"));

        Bars.Bar p99 = w3Bar(r, "p99 <= 2 ms");
        assertThat(p99.status()).isEqualTo("NOT COMPARABLE");
        assertThat(p99.met()).isFalse();
        assertThat(p99.detail()).contains("10.25", "19.6 %", "rerun on a quiet host");
        assertThat(w3Bar(r, "p99.9 <= 4 ms").status()).isEqualTo("NOT COMPARABLE");
        assertThat(w3Bar(r, "never early").status()).as("no host excuses an early fire").isEqualTo("MISSED");
        Bars.Bar ratio = Bars.evaluate(r).stream().filter(b -> b.workload().equals("W3") && b.text()
                .startsWith("HashedWheelTimer")).findFirst().orElseThrow();
        assertThat(ratio.known()).as("hashed did not run").isFalse();
    }

    @Test
    void w3_lateness_onAQuietHost_isJudgedByItsLimit() {
        Report quiet = w3(
                result("W3", "tickwheel-hier-1ms", "latenessP99Ms", "1.14", "latenessP999Ms", "4.20",
                        "early", "0", "missing", "0", "hostStealPct", "1.5"),
                result("W3", "netty41-1ms", "latenessP99Ms", "1.99", "early", "0", "missing", "0",
                        "hostStealPct", "4.9"));
        Report unknown = w3(
                result("W3", "tickwheel-hier-1ms", "latenessP99Ms", "2.5", "early", "0", "missing", "0"));

        assertThat(w3Bar(quiet, "p99 <= 2 ms").status()).isEqualTo("met");
        assertThat(w3Bar(quiet, "p99.9 <= 4 ms").status()).as("4.20 ms on a quiet host").isEqualTo("MISSED");
        assertThat(w3Bar(unknown, "p99 <= 2 ms").status()).as("no steal recorded (not Linux)")
                .isEqualTo("MISSED");
        Report metUnderSteal = w3(
                result("W3", "tickwheel-hier-1ms", "latenessP99Ms", "1.30", "latenessP999Ms", "3.10",
                        "early", "0", "missing", "0", "hostStealPct", "9.0"));
        assertThat(w3Bar(metUnderSteal, "p99 <= 2 ms").status()).as("steal only makes fires later")
                .isEqualTo("met");
    }

    @Test
    void aRatio_whoseEitherRunMetAHostThatTookTheCores_isNotComparable() {
        Report r = report(
                result("W2", "tickwheel-hier-1ms", "cpuNsPerOp", "56.8", "hostStealPct", "0.8"),
                result("W2", "netty41-1ms", "cpuNsPerOp", "150.7", "hostStealPct", "12.0"));

        Bars.Bar bar = w2(r);
        assertThat(bar.status()).isEqualTo("NOT COMPARABLE");
        assertThat(bar.detail()).contains("0.38 x", "0.8 %", "12.0 %");
    }
}
