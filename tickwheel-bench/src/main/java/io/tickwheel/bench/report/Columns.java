package io.tickwheel.bench.report;

import io.tickwheel.bench.workloads.HostSteal;
import java.util.List;
import java.util.Map;

/**
 * Which metrics each workload's table and charts show, and which ones the ratios against
 * Netty 4.1 at 1 ms and against the floor are taken on. Shared by the stdout table, the JSON
 * and the HTML report.
 *
 * <p>Threading: immutable.
 */
public final class Columns {

    /** The header of the host's steal ({@link HostSteal}), in every table. */
    private static final String STEAL = "steal %";

    private static final List<Column> SCENARIO = List.of(
            new Column("throughputPerSec", "ops/s", 0),
            new Column("cpuNsPerOp", "cpu ns/op", 0),
            new Column("processCpuMsPerSec", "proc cpu ms/s", 1),
            new Column("timerThreadCpuMsPerSec", "timer cpu ms/s", 2),
            new Column("latenessP50Ms", "p50 ms", 2),
            new Column("latenessP99Ms", "p99 ms", 2),
            new Column("latenessMaxMs", "max ms", 2),
            new Column("fired", "fired", 0),
            new Column("early", "early", 0),
            new Column("heapRetainedMb", "heap MB", 1),
            new Column(HostSteal.KEY, STEAL, 1));

    private static final Map<String, List<Column>> COLUMNS = Map.of(
            "W1", List.of(new Column("wallNsPerOp", "wall ns/op", 1),
                    new Column("cpuNsPerOp", "cpu ns/op", 1),
                    new Column("bytesPerTimeout", "B/timeout", 1),
                    new Column("interCoreRoundTripNsMax", "x-core rt ns", 0),
                    new Column(HostSteal.KEY, STEAL, 1)),
            "W2", List.of(new Column("wallNsPerOp", "wall ns/op", 1),
                    new Column("cpuNsPerOp", "cpu ns/op", 1),
                    new Column("heapRetainedMb", "heap after MB", 1),
                    new Column("interCoreRoundTripNsMax", "x-core rt ns", 0),
                    new Column(HostSteal.KEY, STEAL, 1)),
            "W3", List.of(new Column("latenessP50Ms", "p50 ms", 2),
                    new Column("latenessP99Ms", "p99 ms", 2),
                    new Column("latenessP999Ms", "p99.9 ms", 2),
                    new Column("latenessMaxMs", "max ms", 2),
                    new Column("early", "early", 0),
                    new Column("missing", "missing", 0),
                    new Column(HostSteal.KEY, STEAL, 1)),
            "W4", List.of(new Column("timerThreadCpuMsPerSec", "timer cpu ms/s", 3),
                    new Column("processCpuMsPerSec", "proc cpu ms/s", 2),
                    new Column("processCpuMinusIdleMsPerSec", "proc-idle ms/s", 2),
                    new Column(HostSteal.KEY, STEAL, 1)),
            "W5", List.of(new Column("timerThreadCpuMsPerSec", "timer cpu ms/s", 3),
                    new Column("processCpuMsPerSec", "proc cpu ms/s", 2),
                    new Column("processCpuMinusIdleMsPerSec", "proc-idle ms/s", 2),
                    new Column(HostSteal.KEY, STEAL, 1)),
            "W6", List.of(new Column("firesPerSec", "fires/s", 0),
                    new Column("cpuNsPerFire", "cpu ns/fire", 0),
                    new Column("lastFireMinusLastDeadlineMs", "last-deadline ms", 2),
                    new Column("missing", "missing", 0),
                    new Column(HostSteal.KEY, STEAL, 1)),
            "W7", List.of(new Column("scheduleWallNsPerOpPerThread", "sched wall ns/op/thr", 1),
                    new Column("scheduleCpuNsPerOp", "sched cpu ns/op", 1),
                    new Column("churnWallNsPerOpPerThread", "churn wall ns/op/thr", 1),
                    new Column("churnCpuNsPerOp", "churn cpu ns/op", 1),
                    new Column(HostSteal.KEY, STEAL, 1)));

    private static final Map<String, List<String>> RATIOS = Map.of(
            "W1", List.of("cpuNsPerOp", "wallNsPerOp"),
            "W2", List.of("cpuNsPerOp"),
            "W3", List.of("latenessP99Ms"),
            "W4", List.of("timerThreadCpuMsPerSec"),
            "W5", List.of("timerThreadCpuMsPerSec"),
            "W6", List.of("cpuNsPerFire"),
            "W7", List.of("scheduleCpuNsPerOp", "churnCpuNsPerOp"));

    private Columns() {
    }

    /**
     * Lists the columns of a workload or scenario.
     *
     * @param workload the id
     * @return its columns
     */
    public static List<Column> of(final String workload) {
        return COLUMNS.getOrDefault(workload, SCENARIO);
    }

    /**
     * Lists the metrics the ratios are taken on.
     *
     * @param workload the id
     * @return the metric names, the headline first
     */
    public static List<String> ratioKeys(final String workload) {
        return RATIOS.getOrDefault(workload, List.of("cpuNsPerOp"));
    }

    /**
     * Tells whether a workload has floor figures (the floor only schedules and cancels).
     *
     * @param workload the id
     * @return true for W1, W2 and W7
     */
    public static boolean hasFloor(final String workload) {
        return "W1".equals(workload) || "W2".equals(workload) || "W7".equals(workload);
    }

    /**
     * Finds a column's header.
     *
     * @param workload the id
     * @param key the metric name
     * @return the header, or the key itself
     */
    public static String header(final String workload, final String key) {
        return of(workload).stream().filter(c -> c.key().equals(key)).map(Column::header)
                .findFirst().orElse(key);
    }
}
