package io.tickwheel.bench.report;

import io.tickwheel.bench.timers.TimerCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The plain-text view of a {@link Report}: per workload, one row per timer with its figures and
 * its ratios against Netty 4.1 at 1 ms and against the floor (value divided by theirs, so lower
 * is better), then the bars of BENCH.md.
 *
 * <p>Threading: stateless.
 */
public final class ResultTable {

    private static final Pattern SPACE = Pattern.compile(" ");

    private ResultTable() {
    }

    /**
     * Lays out one workload's table: a header row, then one row per timer (a failed run has
     * its timer and its error only).
     *
     * @param report the report
     * @param w the workload
     * @return the rows, header first
     */
    public static List<List<String>> rows(final Report report, final Report.Entry w) {
        List<Column> columns = Columns.of(w.id());
        List<String> ratios = Columns.ratioKeys(w.id());
        boolean floor = Columns.hasFloor(w.id());
        List<String> header = new ArrayList<>();
        header.add("timer");
        columns.forEach(c -> header.add(c.header()));
        ratios.forEach(k -> header.add(Columns.header(w.id(), k) + " /netty41"));
        if (floor) {
            ratios.forEach(k -> header.add(Columns.header(w.id(), k) + " /floor"));
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(header);
        for (RunResult r : report.resultsOf(w.id())) {
            List<String> row = new ArrayList<>();
            row.add(r.timer());
            if (!r.ok()) {
                row.add("ERROR: " + r.error());
                rows.add(row);
                continue;
            }
            columns.forEach(c -> row.add(Fmt.num(r.num(c.key()), c.decimals())));
            ratios.forEach(k -> row.add(Fmt.ratio(report.ratio(w.id(), r.timer(), k,
                    TimerCatalog.NETTY_41_1MS))));
            if (floor) {
                ratios.forEach(k -> row.add(Fmt.ratio(report.ratio(w.id(), r.timer(), k,
                        TimerCatalog.FLOOR))));
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * Renders the whole report as text.
     *
     * @param report the report
     * @param bars the evaluated bars
     * @return the text, ending with a line break
     */
    public static String render(final Report report, final List<Bars.Bar> bars) {
        StringBuilder out = new StringBuilder();
        Map<String, Object> meta = report.meta();
        out.append("tickwheel-bench ").append(meta.get("mode")).append(" run, ")
                .append(meta.get("date")).append('\n')
                .append("JVM ").append(meta.get("jvm")).append(", child flags ")
                .append(meta.get("childJvmFlags")).append('\n')
                .append("machine ").append(meta.get("machine")).append('\n')
                .append("ratios: /netty41 = value / netty41-1ms's, /floor = value / floor's "
                        + "(lower is better)\n");
        for (Report.Entry w : report.workloads()) {
            out.append('\n');
            table(out, report, w);
        }
        out.append("\nBENCH.md bars (").append(TimerCatalog.TICKWHEEL_HIER)
                .append(", and tickwheel-hashed against Netty at the same tick)\n");
        long unknown = 0;
        for (Bars.Bar bar : bars) {
            if (!bar.known()) {
                unknown++;
                continue;
            }
            out.append("  ").append(String.format(Locale.ROOT, "%-15s", bar.status())) // NOT COMPARABLE and a space
                    .append(bar.workload()).append(' ')
                    .append(bar.text()).append(": ").append(bar.detail()).append('\n');
        }
        if (unknown > 0) {
            out.append("  (").append(unknown).append(" more bars need workloads or timers that did "
                    + "not run)\n");
        }
        summary(out, report);
        return out.toString();
    }

    /** The summary: per workload the best peer, tickwheel and the ratio, and how far to trust it. */
    private static void summary(final StringBuilder out, final Report report) {
        List<Summary.Row> rows = Summary.of(report);
        if (rows.isEmpty()) {
            return;
        }
        out.append("\nSummary (ratio = tickwheel / best peer, lower is better)\n");
        for (Summary.Row row : rows) {
            out.append(String.format(Locale.ROOT, "  %-11s %-20s %-32s %-32s %s%n",
                    row.workload(), row.measure(), row.peer() == null ? "no peer"
                            : row.peer() + " " + Fmt.num(row.peerValue(), 2),
                    row.ours() + " " + Fmt.num(row.ourValue(), 2), row.ratioText()));
            out.append("              ").append(row.meaning()).append('\n');
        }
        out.append(wrap(Summary.trust(report), 96, "  ")).append('\n');
    }

    /** Wraps a paragraph at spaces. */
    static String wrap(final String text, final int width, final String indent) {
        StringBuilder out = new StringBuilder(indent);
        int line = indent.length();
        for (String word : SPACE.splitAsStream(text).toList()) {
            if (line > indent.length() && line + 1 + word.length() > width) {
                out.append('\n').append(indent);
                line = indent.length();
            } else if (line > indent.length()) {
                out.append(' ');
                line++;
            }
            out.append(word);
            line += word.length();
        }
        return out.toString();
    }

    private static void table(final StringBuilder out, final Report report, final Report.Entry w) {
        out.append(w.id()).append(' ').append(w.name()).append(" - ").append(w.description())
                .append('\n');
        List<List<String>> rows = rows(report, w);
        List<String> header = rows.get(0);
        int[] widths = new int[header.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size() && i < widths.length; i++) {
                if (i == 0 || row.size() == widths.length) {
                    widths[i] = Math.max(widths[i], row.get(i).length());
                }
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                boolean aligned = i == 0 || row.size() == widths.length;
                int width = aligned && i < widths.length ? widths[i] : 0;
                if (i == 0) {
                    line.append(cell).append(" ".repeat(Math.max(0, width - cell.length())));
                } else {
                    line.append("  ").append(" ".repeat(Math.max(0, width - cell.length())))
                            .append(cell);
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }
}
