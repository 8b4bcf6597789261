package io.tickwheel.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Maps values to [0, 1] along a chart axis, linearly from zero or logarithmically by decades,
 * and picks the tick values.
 *
 * <p>Threading: immutable.
 */
final class Scale {

    private final boolean log;
    private final double lo;
    private final double hi;

    private Scale(final boolean log, final double lo, final double hi) {
        this.log = log;
        this.lo = lo;
        this.hi = hi;
    }

    /** A linear scale from 0 to a round number at or above {@code max}. */
    static Scale linear(final double max) {
        double step = niceStep(max);
        return new Scale(false, 0, Math.ceil(max / step) * step);
    }

    /** A logarithmic scale over whole decades covering [min, max]. */
    static Scale log(final double min, final double max) {
        double lo = Math.pow(10, Math.floor(Math.log10(min)));
        double hi = Math.pow(10, Math.ceil(Math.log10(Math.max(max, min * 10))));
        return new Scale(true, lo, hi);
    }

    /** Where a value sits, from 0 (the low end) to 1 (the high end). */
    double at(final double value) {
        if (log) {
            double v = Math.max(value, lo);
            return (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
        }
        return hi == 0 ? 0 : value / hi;
    }

    /** The values to draw a grid line and label at. */
    List<Double> ticks() {
        List<Double> ticks = new ArrayList<>();
        if (log) {
            int decades = (int) Math.round(Math.log10(hi / lo));
            for (int d = 0; d <= decades; d++) {
                ticks.add(lo * Math.pow(10, d));
            }
        } else {
            double step = niceStep(hi);
            for (int i = 0; i * step <= hi * 1.0001; i++) {
                ticks.add(i * step);
            }
        }
        return ticks;
    }

    private static double niceStep(final double max) {
        double raw = max / 5;
        double decade = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / decade;
        double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
        return nice * decade;
    }
}
