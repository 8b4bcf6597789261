package io.tickwheel.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The summary that opens the report, on hand-made results. */
class SummaryTest {

    private static RunResult result(final String workload, final String timer,
            final String... keysAndValues) {
        Map<String, String> metrics = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            metrics.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new RunResult(workload, timer, metrics, null, 1.0);
    }

    private static Report report(final String mode, final List<String> workloads,
            final RunResult... results) {
        return report(Map.of("loadAverage", "0.10 before, 0.20 after"), mode, workloads, results);
    }

    private static Report report(final Map<String, Object> extraMeta, final String mode,
            final List<String> workloads, final RunResult... results) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("mode", mode);
        meta.putAll(extraMeta);
        List<Report.Entry> entries = new ArrayList<>();
        for (String w : workloads) {
            entries.add(new Report.Entry(w, w, w, false));
        }
        List<Report.Entry> timers = List.of(new Report.Entry("tickwheel-hier-1ms", "", "", false),
                new Report.Entry("netty41-1ms", "", "", false),
                new Report.Entry("stpe", "", "", false),
                new Report.Entry("floor", "", "", false));
        return new Report(meta, entries, timers, List.of(results));
    }

    @Test
    void of_w1_picksTheCheapestPeerNotTheFloorAndGivesTheRoundsSpread() {
        Report r = report("full", List.of("W1"),
                result("W1", "tickwheel-hier-1ms", "cpuNsPerOp", "50", "cpuNsPerOpMin", "45",
                        "cpuNsPerOpMax", "60", "wallNsPerOp", "40"),
                result("W1", "netty41-1ms", "cpuNsPerOp", "100", "cpuNsPerOpMin", "90",
                        "cpuNsPerOpMax", "120", "wallNsPerOp", "30"),
                result("W1", "stpe", "cpuNsPerOp", "80", "wallNsPerOp", "70"),
                result("W1", "floor", "cpuNsPerOp", "10", "wallNsPerOp", "10"));

        List<Summary.Row> rows = Summary.of(r);

        assertThat(rows).hasSize(2);
        Summary.Row cpu = rows.get(0);
        assertThat(cpu.peer()).isEqualTo("stpe");
        assertThat(cpu.ratio()).isEqualTo(50.0 / 80.0);
        assertThat(cpu.ratioText()).isEqualTo("0.63");
        assertThat(cpu.meaning()).contains("arming a timeout", "tickwheel lower (better)");
        Summary.Row wall = rows.get(1);
        assertThat(wall.peer()).isEqualTo("netty41-1ms");
        assertThat(wall.ratio()).isEqualTo(40.0 / 30.0);
        assertThat(wall.meaning()).contains("tickwheel higher (worse)");
    }

    @Test
    void of_spreadOfRounds_isOurBestOverTheirWorstToOurWorstOverTheirBest() {
        Report r = report("full", List.of("W1"),
                result("W1", "tickwheel-hier-1ms", "cpuNsPerOp", "50", "cpuNsPerOpMin", "45",
                        "cpuNsPerOpMax", "60"),
                result("W1", "netty41-1ms", "cpuNsPerOp", "100", "cpuNsPerOpMin", "90",
                        "cpuNsPerOpMax", "120"));

        assertThat(Summary.of(r).get(0).ratioText()).isEqualTo("0.50 (rounds 0.38-0.67)");
    }

    @Test
    void of_quickRun_callsRatiosWithinItsToleranceOnPar() {
        Report r = report("quick", List.of("W2"),
                result("W2", "tickwheel-hier-1ms", "cpuNsPerOp", "110"),
                result("W2", "netty41-1ms", "cpuNsPerOp", "100"));

        assertThat(Summary.of(r).get(0).meaning()).contains("RPC timeouts", "on par");
        assertThat(Summary.trust(r)).contains("Quick run", "--full");
    }

    @Test
    void trust_busyOnlyWhenOtherProcessesTookCpuDuringTheRun_notForALoadAverageLeftByABuild() {
        RunResult netty = result("W1", "netty41-1ms", "cpuNsPerOp", "100");
        Report quiet = report(Map.of("loadAverage", "2.91 before, 1.05 after",
                "otherProcessesCores", "0.02 (cores other processes kept busy)"), "full", List.of("W1"), netty);
        Report busy = report(Map.of("loadAverage", "0.10 before, 0.20 after",
                "otherProcessesCores", "0.45 (cores other processes kept busy)"), "full", List.of("W1"), netty);
        Report unknown = report(Map.of("loadAverage", "2.91 before, 1.05 after"), "full", List.of("W1"), netty);

        assertThat(Summary.trust(quiet)).doesNotContain("busy");
        assertThat(Summary.trust(busy)).contains("busy", "0.45 cores", "not to be quoted");
        assertThat(Summary.trust(unknown)).as("no /proc: the load average decides").contains("busy", "2.91");
    }

    @Test
    void cpuAccounts_onLinux_countThisProcessWithinTheMachine() {
        long[] before = Environment.cpuAccounts();
        long spin = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < spin) {
            x += x * 31 + 7;
        }
        long[] after = Environment.cpuAccounts();
        assertThat(x).isNotEqualTo(1);
        assertThat(before[0]).as("/proc/stat readable on the CI machine").isPositive();
        assertThat(after[1] - before[1]).as("this process's CPU over a 300 ms spin").isGreaterThan(150_000_000L);
        assertThat(after[0] - before[0]).as("the machine's busy time includes ours")
                .isGreaterThanOrEqualTo(after[1] - before[1] - 20_000_000L);
        assertThat(Environment.otherProcessesCores(before, after, 300_000_000L)).isBetween(0.0, 2.0);
        assertThat(Environment.otherProcessesCores(new long[] {-1, -1}, after, 1)).isEqualTo(-1.0);
    }

    @Test
    void of_idleFiguresOfZero_giveNoNanOrInfinity() {
        Report r = report("full", List.of("W4", "W5"),
                result("W4", "tickwheel-hier-1ms", "timerThreadCpuMsPerSec", "0.0"),
                result("W4", "stpe", "timerThreadCpuMsPerSec", "0.0"),
                result("W4", "netty41-1ms", "timerThreadCpuMsPerSec", "24.0"),
                result("W5", "tickwheel-hier-1ms", "timerThreadCpuMsPerSec", "0.5"),
                result("W5", "stpe", "timerThreadCpuMsPerSec", "0.0"));

        List<Summary.Row> rows = Summary.of(r);

        assertThat(rows).extracting(Summary.Row::ratioText).containsExactly("both 0", "peer 0");
        for (Summary.Row row : rows) {
            assertThat(row.ratioText() + row.meaning()).doesNotContainIgnoringCase("nan")
                    .doesNotContainIgnoringCase("infinity");
        }
    }

    @Test
    void of_w3_leavesOutPeersThatFireEarly() {
        Report r = report("full", List.of("W3"),
                result("W3", "tickwheel-hier-1ms", "latenessP99Ms", "1.2", "early", "0"),
                result("W3", "stpe", "latenessP99Ms", "0.5", "early", "12"),
                result("W3", "netty41-1ms", "latenessP99Ms", "2.0", "early", "0"));

        assertThat(Summary.of(r).get(0).peer()).isEqualTo("netty41-1ms");
    }

    @Test
    void of_workloadTickwheelDidNotRun_hasNoRow() {
        Report r = report("full", List.of("W2"), result("W2", "netty41-1ms", "cpuNsPerOp", "9"));

        assertThat(Summary.of(r)).isEmpty();
    }

    @Test
    void of_w2_warnsWhenTheInterCoreRoundTripMovedBetweenTheTwoRuns() {
        Report moved = report("full", List.of("W2"),
                result("W2", "tickwheel-hier-1ms", "cpuNsPerOp", "73", "interCoreRoundTripNsMin", "305",
                        "interCoreRoundTripNsMax", "330"),
                result("W2", "netty41-1ms", "cpuNsPerOp", "63", "interCoreRoundTripNsMin", "66",
                        "interCoreRoundTripNsMax", "75"));
        Report steady = report("full", List.of("W2"),
                result("W2", "tickwheel-hier-1ms", "cpuNsPerOp", "56", "interCoreRoundTripNsMin", "67",
                        "interCoreRoundTripNsMax", "78"),
                result("W2", "netty41-1ms", "cpuNsPerOp", "63", "interCoreRoundTripNsMin", "66",
                        "interCoreRoundTripNsMax", "75"));
        Report unrecorded = report("full", List.of("W2"),
                result("W2", "tickwheel-hier-1ms", "cpuNsPerOp", "56"),
                result("W2", "netty41-1ms", "cpuNsPerOp", "63", "interCoreRoundTripNsMin", "66",
                        "interCoreRoundTripNsMax", "330"));

        assertThat(Summary.of(moved).get(0).meaning()).contains("NOT COMPARABLE", "between 66 and 330 ns",
                "tickwheel 305-330", "the peer 66-75");
        assertThat(Summary.of(steady).get(0).meaning()).doesNotContain("NOT COMPARABLE");
        assertThat(Summary.of(unrecorded).get(0).meaning()).doesNotContain("NOT COMPARABLE");
    }

    @Test
    void of_w3_warnsWhenTheHostTookTheCoresDuringEitherRun() {
        Report stolen = report("quick", List.of("W3"),
                result("W3", "tickwheel-hier-1ms", "latenessP99Ms", "10.25", "hostStealPct", "19.6"),
                result("W3", "netty41-1ms", "latenessP99Ms", "1.99", "hostStealPct", "1.4"));
        Report quiet = report("quick", List.of("W3"),
                result("W3", "tickwheel-hier-1ms", "latenessP99Ms", "1.14", "hostStealPct", "1.6"),
                result("W3", "netty41-1ms", "latenessP99Ms", "1.99", "hostStealPct", "5.0"));

        assertThat(Summary.of(stolen).get(0).meaning()).contains("NOT COMPARABLE", "19.6 %", "1.4 %",
                "rerun on a quiet host");
        assertThat(Summary.of(quiet).get(0).meaning()).as("5.0 % is at the limit, not above it")
                .doesNotContain("NOT COMPARABLE");
    }
}
