package io.tickwheel.bench.report;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Number formatting shared by the table and the HTML report.
 *
 * <p>Threading: stateless.
 */
final class Fmt {

    private Fmt() {
    }

    /** Formats a value: grouped digits from 1000 up, else the given decimals; "-" for NaN. */
    static String num(final double value, final int decimals) {
        if (Double.isNaN(value)) {
            return "-";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (Math.abs(value) >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** Formats an axis tick: as few decimals as the value needs (0, 0.001, 2.5, 1,000). */
    static String axis(final double value) {
        BigDecimal d = BigDecimal.valueOf(value).stripTrailingZeros();
        if (d.signum() == 0) {
            return "0";
        }
        return Math.abs(value) >= 1000 ? num(value, 0) : d.toPlainString();
    }

    /** Formats a ratio with two decimals, or three under 0.1. */
    static String ratio(final double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "-";
        }
        return num(value, Math.abs(value) < 0.1 ? 3 : 2);
    }

    /** Escapes text for HTML and XML. */
    static String esc(final String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
