package io.tickwheel.bench.report;

import java.util.List;
import java.util.Locale;

/**
 * Inline SVG charts for the HTML report, drawn by hand so the report needs no script and no
 * network: horizontal bar charts (linear or logarithmic) and lateness percentile curves with the
 * logarithmic percentile axis of HdrHistogram's plots.
 *
 * <p>Threading: stateless.
 */
final class SvgCharts {

    private static final int WIDTH = 820;
    private static final int LEFT = 190;
    private static final int RIGHT = 110;
    private static final int ROW = 20;
    private static final String[] PERCENTILES = {"0%", "90%", "99%", "99.9%", "99.99%",
        "99.999%", "99.9999%"};

    /**
     * One bar: a timer's value.
     *
     * @param name the timer
     * @param color its colour
     * @param value the bar's length, NaN when missing
     */
    record Item(String name, String color, double value) {
    }

    /**
     * One point of a curve.
     *
     * @param x log10(1 / (1 - percentile))
     * @param y the value at that percentile
     */
    record Point(double x, double y) {
    }

    /**
     * One curve: a timer's points.
     *
     * @param name the timer
     * @param color its colour
     * @param points the points, in increasing x
     */
    record Series(String name, String color, List<Point> points) {
    }

    private SvgCharts() {
    }

    /** Draws horizontal bars, one per item, with the value printed after each bar. */
    static String bars(final String title, final String axisLabel, final List<Item> items,
            final boolean log) {
        int plotWidth = WIDTH - LEFT - RIGHT;
        int height = 50 + ROW * items.size() + 45;
        double max = 0;
        double minPositive = Double.MAX_VALUE;
        for (Item i : items) {
            if (!Double.isNaN(i.value())) {
                max = Math.max(max, i.value());
                if (i.value() > 0) {
                    minPositive = Math.min(minPositive, i.value());
                }
            }
        }
        Scale scale = log ? Scale.log(minPositive == Double.MAX_VALUE ? 1 : minPositive,
                Math.max(max, 1e-9)) : Scale.linear(max <= 0 ? 1 : max);
        StringBuilder svg = open(height, title);
        int top = 40;
        int bottom = top + ROW * items.size();
        axisX(svg, scale, plotWidth, top, bottom, axisLabel);
        for (int k = 0; k < items.size(); k++) {
            Item item = items.get(k);
            int y = top + k * ROW;
            svg.append(text(LEFT - 6, y + 14, "end", 12, item.name()));
            String label;
            double w;
            if (Double.isNaN(item.value())) {
                label = "n/a";
                w = 0;
            } else {
                label = Fmt.num(item.value(), item.value() < 10 ? 3 : 1);
                w = item.value() <= 0 ? 0 : plotWidth * scale.at(item.value());
            }
            svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='%.1f' height='%d' "
                    + "fill='%s'><title>%s: %s</title></rect>", LEFT, y + 3, Math.max(w, 1.0),
                    ROW - 6, item.color(), Fmt.esc(item.name()), label));
            svg.append(text((int) (LEFT + Math.max(w, 1) + 5), y + 14, "start", 11, label));
        }
        return svg.append("</svg>\n").toString();
    }

    /** Draws lateness percentile curves: x is log10(1 / (1 - percentile)), y is logarithmic. */
    static String curves(final String title, final String yLabel, final List<Series> series) {
        int plotWidth = WIDTH - LEFT - RIGHT;
        int plotHeight = 300;
        int top = 40;
        int height = top + plotHeight + 60 + 18 * ((series.size() + 2) / 3);
        double maxY = 1e-3;
        double maxX = 1;
        for (Series s : series) {
            for (Point p : s.points()) {
                maxY = Math.max(maxY, p.y());
                maxX = Math.max(maxX, p.x());
            }
        }
        maxX = Math.min(Math.ceil(maxX), PERCENTILES.length - 1);
        Scale y = Scale.log(1e-3, maxY);
        StringBuilder svg = open(height, title);
        int bottom = top + plotHeight;
        for (double v : y.ticks()) {
            int py = (int) (bottom - plotHeight * y.at(v));
            svg.append(line(LEFT, py, LEFT + plotWidth, py, "#ddd"));
            svg.append(text(LEFT - 6, py + 4, "end", 11, Fmt.axis(v)));
        }
        for (int d = 0; d <= maxX; d++) {
            int px = (int) (LEFT + plotWidth * d / maxX);
            svg.append(line(px, top, px, bottom, "#ddd"));
            svg.append(text(px, bottom + 16, "middle", 11, PERCENTILES[d]));
        }
        svg.append(line(LEFT, bottom, LEFT + plotWidth, bottom, "#333"));
        svg.append(line(LEFT, top, LEFT, bottom, "#333"));
        svg.append(text(LEFT + plotWidth / 2, bottom + 36, "middle", 12, "percentile"));
        svg.append(String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='middle' "
                + "font-size='12' transform='rotate(-90 %d %d)'>%s</text>", LEFT - 55,
                top + plotHeight / 2, LEFT - 55, top + plotHeight / 2, Fmt.esc(yLabel)));
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            StringBuilder points = new StringBuilder();
            for (Point p : s.points()) {
                double px = LEFT + plotWidth * Math.min(p.x(), maxX) / maxX;
                double py = bottom - plotHeight * y.at(Math.max(p.y(), 1e-3));
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
            }
            svg.append(String.format(Locale.ROOT, "<polyline fill='none' stroke='%s' "
                    + "stroke-width='2' points='%s'><title>%s</title></polyline>", s.color(),
                    points.toString().trim(), Fmt.esc(s.name())));
            int column = Math.floorMod(k, 3);
            int lx = 20 + column * 265;
            int ly = bottom + 50 + (k / 3) * 18;
            svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='14' height='4' "
                    + "fill='%s'/>", lx, ly - 4, s.color()));
            svg.append(text(lx + 20, ly, "start", 11, s.name()));
        }
        return svg.append("</svg>\n").toString();
    }

    private static void axisX(final StringBuilder svg, final Scale scale, final int plotWidth,
            final int top, final int bottom, final String label) {
        for (double v : scale.ticks()) {
            int px = (int) (LEFT + plotWidth * scale.at(v));
            svg.append(line(px, top, px, bottom, "#e4e4e4"));
            svg.append(text(px, bottom + 14, "middle", 10, Fmt.axis(v)));
        }
        svg.append(line(LEFT, bottom, LEFT + plotWidth, bottom, "#333"));
        svg.append(line(LEFT, top, LEFT, bottom, "#333"));
        svg.append(text(LEFT + plotWidth / 2, bottom + 32, "middle", 12, label));
    }

    private static StringBuilder open(final int height, final String title) {
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg "
                + "width='%d' height='%d' viewBox='0 0 %d %d' font-family='sans-serif'>", WIDTH,
                height, WIDTH, height));
        svg.append(text(WIDTH / 2, 22, "middle", 14, title).replace("<text ",
                "<text font-weight='bold' "));
        return svg;
    }

    private static String line(final int x1, final int y1, final int x2, final int y2,
            final String color) {
        return String.format(Locale.ROOT, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s'/>",
                x1, y1, x2, y2, color);
    }

    private static String text(final int x, final int y, final String anchor, final int size,
            final String text) {
        return String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='%s' font-size='%d'>"
                + "%s</text>", x, y, anchor, size, Fmt.esc(text));
    }
}
