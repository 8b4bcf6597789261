package io.tickwheel.bench.report;

import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import io.tickwheel.bench.workloads.Lateness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The HTML view of a {@link Report}: one self-contained page (inline CSS and SVG, no script, no
 * network) that opens with a one-screen {@link Summary}, then the run's description, the bars,
 * and per workload a table and charts: lateness percentile curves, nanoseconds per operation,
 * CPU per idle second, heap per timeout.
 *
 * <p>Threading: stateless.
 */
public final class HtmlReport {

    private static final String[] PALETTE = {"#1f77b4", "#2ca02c", "#98df8a", "#d62728",
        "#ff9896", "#9467bd", "#c5b0d5", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
        "#aec7e8", "#ffbb78"};

    /** Charts per workload: metric key, title, axis label, logarithmic. */
    private static final Map<String, List<String[]>> CHARTS = Map.of(
            "W1", List.of(chart("cpuNsPerOp", "W1: process CPU per schedule", "ns/op", false),
                    chart("wallNsPerOp", "W1: wall time per schedule", "ns/op", false),
                    chart("bytesPerTimeout", "W1: heap per pending timeout", "bytes", false)),
            "W2", List.of(chart("cpuNsPerOp", "W2: process CPU per op", "ns/op", false),
                    chart("wallNsPerOp", "W2: wall time per op", "ns/op", false),
                    chart("heapRetainedMb", "W2: heap retained after the run", "MB (log)",
                            true)),
            "W4", List.of(chart("timerThreadCpuMsPerSec", "W4: timer-thread CPU per idle second",
                    "ms/s (log)", true), chart("processCpuMinusIdleMsPerSec",
                    "W4: process CPU per idle second minus an empty JVM's", "ms/s", false)),
            "W5", List.of(chart("timerThreadCpuMsPerSec", "W5: timer-thread CPU per second, "
                    + "far set pending", "ms/s (log)", true), chart("processCpuMsPerSec",
                    "W5: process CPU per second, far set pending", "ms/s", false)),
            "W6", List.of(chart("cpuNsPerFire", "W6: process CPU per fire", "ns/fire", false),
                    chart("lastFireMinusLastDeadlineMs", "W6: last fire minus last deadline",
                            "ms (log)", true)),
            "W7", List.of(chart("scheduleCpuNsPerOp", "W7: 2 producers, W1 process CPU per op",
                    "ns/op", false), chart("churnCpuNsPerOp",
                    "W7: 2 producers, W2 process CPU per op", "ns/op", false)));

    private static final List<String[]> SCENARIO_CHARTS = List.of(
            chart("cpuNsPerOp", "process CPU per operation", "ns/op", false),
            chart("latenessP99Ms", "lateness p99", "ms (log)", true),
            chart("heapRetainedMb", "heap retained", "MB", false));

    private HtmlReport() {
    }

    private static String[] chart(final String key, final String title, final String axis,
            final boolean log) {
        return new String[] {key, title, axis, Boolean.toString(log)};
    }

    /**
     * Renders the report.
     *
     * @param report the report
     * @param bars the evaluated bars
     * @return the HTML page
     */
    public static String render(final Report report, final List<Bars.Bar> bars) {
        StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
                + "<title>tickwheel-bench report</title><style>"
                + "body{font-family:sans-serif;margin:24px;max-width:1100px;color:#222}"
                + "table{border-collapse:collapse;margin:8px 0 16px}"
                + "td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}"
                + "td.n{text-align:right;font-variant-numeric:tabular-nums}"
                + "th{background:#f3f3f3}.met{color:#2a7a2a}.missed{color:#b00;font-weight:bold}"
                + ".sw{display:inline-block;width:12px;height:12px;margin-right:6px}"
                + "svg{display:block;margin:6px 0 18px}</style></head><body>\n");
        html.append("<h1>tickwheel-bench report</h1>\n");
        summary(html, report);
        html.append("<h2>The run</h2>\n<table>");
        report.meta().forEach((k, v) -> html.append("<tr><th>").append(Fmt.esc(k))
                .append("</th><td>").append(Fmt.esc(String.valueOf(v))).append("</td></tr>"));
        html.append("</table>\n<h2>Timers</h2>\n<table><tr><th>timer</th><th>what</th>"
                + "<th>library</th></tr>");
        for (Report.Entry t : report.timers()) {
            html.append("<tr><td><span class='sw' style='background:").append(color(t.id()))
                    .append("'></span>").append(Fmt.esc(t.id())).append("</td><td>")
                    .append(Fmt.esc(t.name())).append("</td><td>").append(Fmt.esc(t.description()))
                    .append("</td></tr>");
        }
        html.append("</table>\n<h2>Bars of BENCH.md</h2>\n<table>");
        for (Bars.Bar b : bars) {
            if (!b.known()) {
                continue;
            }
            String cls = b.met() ? "met" : "missed";
            html.append("<tr><td class='").append(cls).append("'>")
                    .append(b.status()).append("</td><td>")
                    .append(b.workload()).append("</td><td>").append(Fmt.esc(b.text()))
                    .append("</td><td>").append(Fmt.esc(b.detail())).append("</td></tr>");
        }
        html.append("</table>\n");
        for (Report.Entry w : report.workloads()) {
            workload(html, report, w);
        }
        return html.append("</body></html>\n").toString();
    }

    /** The first screen: what ran, then per workload the best peer, tickwheel and the ratio. */
    private static void summary(final StringBuilder html, final Report report) {
        html.append("<p>").append(Fmt.esc(report.meta().get("mode") + " run, "
                + report.meta().get("date") + ", " + report.meta().get("machine") + "; load "
                + report.meta().get("loadAverage"))).append("</p>\n");
        html.append("<h2>Summary</h2>\n<p>").append(Fmt.esc(Summary.trust(report)))
                .append(" Ratio = tickwheel ÷ best peer; lower is better.</p>\n<table><tr>"
                + "<th>workload</th><th>figure</th><th>best peer</th><th>tickwheel</th>"
                + "<th>ratio</th><th>what it means</th></tr>");
        for (Summary.Row row : Summary.of(report)) {
            html.append("<tr><td>").append(Fmt.esc(row.workload())).append("</td><td>")
                    .append(Fmt.esc(row.measure())).append("</td><td>")
                    .append(row.peer() == null ? "-" : Fmt.esc(row.peer() + " "
                            + Fmt.num(row.peerValue(), 2)))
                    .append("</td><td>").append(Fmt.esc(row.ours() + " "
                            + Fmt.num(row.ourValue(), 2)))
                    .append("</td><td class='n'>").append(Fmt.esc(row.ratioText()))
                    .append("</td><td>").append(Fmt.esc(row.meaning())).append("</td></tr>");
        }
        html.append("</table>\n");
    }

    private static void workload(final StringBuilder html, final Report report,
            final Report.Entry w) {
        html.append("<h2>").append(Fmt.esc(w.id() + " " + w.name())).append("</h2>\n<p>")
                .append(Fmt.esc(w.description())).append("</p>\n");
        html.append("<table>");
        List<List<String>> rows = ResultTable.rows(report, w);
        for (int i = 0; i < rows.size(); i++) {
            html.append("<tr>");
            List<String> row = rows.get(i);
            for (int c = 0; c < row.size(); c++) {
                String cell = Fmt.esc(row.get(c));
                if (i == 0) {
                    html.append("<th>").append(cell).append("</th>");
                } else if (c == 0) {
                    html.append("<td><span class='sw' style='background:")
                            .append(color(row.get(0))).append("'></span>").append(cell)
                            .append("</td>");
                } else {
                    int span = row.size() < rows.get(0).size() ? rows.get(0).size() - 1 : 1;
                    html.append("<td class='n' colspan='").append(span).append("'>").append(cell)
                            .append("</td>");
                }
            }
            html.append("</tr>");
        }
        html.append("</table>\n");
        List<RunResult> results = report.resultsOf(w.id());
        if ("W3".equals(w.id()) || w.scenario()) {
            curves(html, w, results);
        }
        html.append(OwnLatenessTable.render(w.id(), results));
        for (String[] c : w.scenario() ? SCENARIO_CHARTS : CHARTS.getOrDefault(w.id(),
                List.<String[]>of())) {
            List<SvgCharts.Item> items = new ArrayList<>();
            for (RunResult r : results) {
                items.add(new SvgCharts.Item(r.timer(), color(r.timer()),
                        r.ok() ? r.num(c[0]) : Double.NaN));
            }
            String title = w.scenario() ? w.id() + ": " + c[1] : c[1];
            html.append(SvgCharts.bars(title, c[2], items, Boolean.parseBoolean(c[3])));
        }
    }

    private static void curves(final StringBuilder html, final Report.Entry w,
            final List<RunResult> results) {
        List<SvgCharts.Series> series = new ArrayList<>();
        for (RunResult r : results) {
            String encoded = r.metrics().get("histogram");
            if (r.ok() && encoded != null) {
                Histogram h = Lateness.decode(encoded);
                if (h.getTotalCount() > 0) {
                    series.add(percentileSeries(r.timer(), color(r.timer()), h));
                }
            }
        }
        if (!series.isEmpty()) {
            html.append(SvgCharts.curves(w.id() + ": lateness by percentile (fire time minus "
                    + "deadline; early fires excluded)", "lateness, ms (log)", series));
        }
    }

    private static SvgCharts.Series percentileSeries(final String name, final String color,
            final Histogram h) {
        List<SvgCharts.Point> points = new ArrayList<>();
        for (HistogramIterationValue v : h.percentiles(5)) {
            double p = v.getPercentileLevelIteratedTo() / 100.0;
            double x = p >= 1 ? Math.log10((double) h.getTotalCount()) : Math.log10(1 / (1 - p));
            points.add(new SvgCharts.Point(x, v.getValueIteratedTo() / 1e6));
        }
        return new SvgCharts.Series(name, color, points);
    }

    /** The timer's colour, fixed by its place in the catalog so every report agrees. */
    private static String color(final String timer) {
        if (TimerCatalog.IDLE_JVM.equals(timer)) {
            return "#555555";
        }
        List<TimerSpec> all = TimerCatalog.all();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).id().equals(timer)) {
                return PALETTE[i % PALETTE.length];
            }
        }
        return "#000000";
    }
}
