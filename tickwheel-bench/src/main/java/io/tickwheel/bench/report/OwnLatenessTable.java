package io.tickwheel.bench.report;

import java.util.List;
import java.util.Locale;

/**
 * W3's comparison of each tickwheel timer's own lateness histogram ({@code stats()}, recorded by
 * its worker at fire time) with the lateness the workload measured from outside (fire time seen
 * by the task minus the planned deadline). The two should agree to within the histogram's bucket
 * width (1/16) plus the time between the worker starting a task and the task reading the clock.
 *
 * <p>Threading: immutable (static rendering).
 */
final class OwnLatenessTable {

    private static final String[][] COLUMNS = {
        {"p50", "latenessP50Ms", "statsLatenessP50Ms"},
        {"p99", "latenessP99Ms", "statsLatenessP99Ms"},
        {"p99.9", "latenessP999Ms", "statsLatenessP999Ms"},
        {"max", "latenessMaxMs", "statsLatenessMaxMs"},
    };

    private OwnLatenessTable() {
    }

    /**
     * Renders the table for W3, or nothing for another workload or when no timer reported stats.
     *
     * @param workload the workload id
     * @param results its runs
     * @return HTML, possibly empty
     */
    static String render(final String workload, final List<RunResult> results) {
        if (!"W3".equals(workload)) {
            return "";
        }
        StringBuilder html = new StringBuilder(512);
        for (RunResult r : results) {
            if (!r.ok() || r.metrics().get("statsLatenessCount") == null) {
                continue;
            }
            if (html.length() == 0) {
                html.append("<h3>W3: each tickwheel timer's own lateness (stats()) beside the measured one</h3>\n")
                        .append("<table><tr><th>timer</th><th>fires (measured / stats)</th>");
                for (String[] c : COLUMNS) {
                    html.append("<th>").append(c[0]).append(" ms (measured / stats)</th>");
                }
                html.append("</tr>");
            }
            html.append("<tr><td>").append(Fmt.esc(r.timer())).append("</td><td class='n'>")
                    .append(pair(r.num("fired"), r.num("statsLatenessCount"), "%,.0f")).append("</td>");
            for (String[] c : COLUMNS) {
                html.append("<td class='n'>").append(pair(r.num(c[1]), r.num(c[2]), "%.3f")).append("</td>");
            }
            html.append("</tr>");
        }
        return html.length() == 0 ? "" : html.append("</table>\n").toString();
    }

    private static String pair(final double measured, final double own, final String format) {
        return String.format(Locale.ROOT, format + " / " + format, measured, own);
    }
}
