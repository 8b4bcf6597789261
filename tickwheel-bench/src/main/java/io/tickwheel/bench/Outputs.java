package io.tickwheel.bench;

import io.tickwheel.bench.report.Bars;
import io.tickwheel.bench.report.Environment;
import io.tickwheel.bench.report.HtmlReport;
import io.tickwheel.bench.report.JsonWriter;
import io.tickwheel.bench.report.Report;
import io.tickwheel.bench.report.ResultTable;
import io.tickwheel.bench.report.RunResult;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import io.tickwheel.bench.workloads.Lateness;
import io.tickwheel.bench.workloads.Sizes;
import io.tickwheel.bench.workloads.Workload;
import io.tickwheel.bench.workloads.WorkloadCatalog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Builds the {@link Report} from the children's results and writes its files: the table
 * ({@code table.txt}), {@code results.json}, one {@code .hgrm} per lateness histogram and
 * {@code report.html}.
 *
 * <p>Threading: stateless.
 */
final class Outputs {

    private Outputs() {
    }

    /** Adds W4's and W5's process CPU minus the empty JVM's to every timer's result. */
    static List<RunResult> withIdleSubtracted(final List<RunResult> results) {
        List<RunResult> adjusted = new ArrayList<>();
        for (RunResult r : results) {
            Optional<RunResult> idle = results.stream().filter(x -> x.workload()
                    .equals(r.workload()) && TimerCatalog.IDLE_JVM.equals(x.timer())
                    && x.ok()).findFirst();
            double own = r.num("processCpuMsPerSec");
            if (idle.isEmpty() || Double.isNaN(own) || !r.ok()) {
                adjusted.add(r);
                continue;
            }
            Map<String, String> metrics = new LinkedHashMap<>(r.metrics());
            metrics.put("processCpuMinusIdleMsPerSec",
                    Double.toString(own - idle.get().num("processCpuMsPerSec")));
            adjusted.add(new RunResult(r.workload(), r.timer(), metrics, r.error(), r.seconds()));
        }
        return adjusted;
    }

    static Report report(final Options options, final List<Workload> workloads,
            final List<RunResult> results, final double loadBefore, final double otherCores) {
        Sizes sizes = options.sizes();
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        meta.put("mode", options.mode());
        meta.put("scale", options.scale);
        meta.put("jvm", Environment.jvm());
        meta.put("javaBinary", ChildLauncher.javaBinary());
        meta.put("childJvmFlags", String.join(" ", options.jvmFlags));
        meta.put("machine", Environment.machine());
        meta.put("cores", Environment.cores());
        meta.put("memoryGiB", Math.round(Environment.memoryBytes() / (double) (1L << 30) * 10)
                / 10.0);
        meta.put("cpu", Environment.cpuModel());
        meta.put("oneJvmPer", "workload x timer");
        meta.put("loadAverage", String.format(Locale.ROOT, "%.2f before, %.2f after (1-minute; "
                + "above 0.5 the machine was not idle)", loadBefore, Environment.loadAverage()));
        if (otherCores >= 0) {
            meta.put("otherProcessesCores", String.format(Locale.ROOT, "%.2f (cores other processes kept busy "
                    + "on average while the run went on, from /proc/stat)", otherCores));
        }
        if (!options.full) {
            meta.put("note", "quick mode: counts scaled down (per-operation figures include more "
                    + "fixed costs); quote the full run");
        }
        List<Report.Entry> entries = new ArrayList<>();
        for (Workload w : workloads) {
            entries.add(new Report.Entry(w.id(), w.name(), w.describe(sizes),
                    WorkloadCatalog.scenarios().contains(w)));
        }
        List<Report.Entry> timers = new ArrayList<>();
        for (TimerSpec t : options.timers) {
            String version = results.stream().filter(r -> r.timer().equals(t.id()))
                    .map(r -> r.metrics().get("version")).filter(Objects::nonNull).findFirst()
                    .orElse("?");
            timers.add(new Report.Entry(t.id(), t.label(), version, false));
        }
        return new Report(meta, entries, timers, results);
    }

    /** Writes every file and returns the table. */
    static String writeAll(final Report report, final List<Bars.Bar> bars, final Path out)
            throws IOException {
        String table = ResultTable.render(report, bars);
        Files.writeString(out.resolve("table.txt"), table, StandardCharsets.UTF_8);
        Files.writeString(out.resolve("results.json"), JsonWriter.write(json(report, bars)),
                StandardCharsets.UTF_8);
        for (RunResult r : report.results()) {
            String encoded = r.metrics().get("histogram");
            if (r.ok() && encoded != null) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try (PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
                    Lateness.decode(encoded).outputPercentileDistribution(ps, 1e6);
                }
                Files.write(out.resolve(r.workload() + "-" + r.timer() + ".hgrm"),
                        bytes.toByteArray());
            }
        }
        Files.writeString(out.resolve("report.html"), HtmlReport.render(report, bars),
                StandardCharsets.UTF_8);
        return table;
    }

    private static Map<String, Object> json(final Report report, final List<Bars.Bar> bars) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("meta", report.meta());
        List<Object> timers = new ArrayList<>();
        for (Report.Entry t : report.timers()) {
            timers.add(ordered("id", t.id(), "label", t.name(), "version", t.description()));
        }
        root.put("timers", timers);
        List<Object> workloads = new ArrayList<>();
        for (Report.Entry w : report.workloads()) {
            workloads.add(ordered("id", w.id(), "name", w.name(), "description",
                    w.description(), "scenario", w.scenario()));
        }
        root.put("workloads", workloads);
        List<Object> results = new ArrayList<>();
        for (RunResult r : report.results()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("workload", r.workload());
            row.put("timer", r.timer());
            row.put("seconds", r.seconds());
            row.put("error", r.error());
            row.put("metrics", r.metrics());
            results.add(row);
        }
        root.put("results", results);
        List<Object> barList = new ArrayList<>();
        for (Bars.Bar b : bars) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("workload", b.workload());
            row.put("bar", b.text());
            row.put("status", !b.known() ? "not measured" : !b.comparable() ? "not comparable"
                    : b.met() ? "met" : "missed");
            row.put("detail", b.detail());
            barList.add(row);
        }
        root.put("bars", barList);
        return root;
    }

    /** Makes a map that keeps the order of its keys: key, value, key, value... */
    private static Map<String, Object> ordered(final Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
