package io.tickwheel.bench.report;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A small JSON writer for maps, collections, strings, numbers, booleans and null. Strings that
 * hold a finite decimal number are written as numbers, since the child JVMs report every metric
 * as text.
 *
 * <p>Threading: stateless.
 */
public final class JsonWriter {

    private static final BigDecimal LARGEST_PLAIN = BigDecimal.valueOf(1e15);
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");

    private JsonWriter() {
    }

    /**
     * Writes a value as indented JSON.
     *
     * @param value a map, collection, string, number, boolean or null
     * @return the JSON text
     */
    public static String write(final Object value) {
        StringBuilder out = new StringBuilder();
        value(out, value, 0);
        return out.append('\n').toString();
    }

    private static void value(final StringBuilder out, final Object value, final int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Map<?, ?> map) {
            object(out, map, depth);
        } else if (value instanceof Collection<?> list) {
            array(out, list, depth);
        } else if (value instanceof Boolean b) {
            out.append(b.booleanValue());
        } else {
            String text = value.toString();
            if (NUMBER.matcher(text).matches()) {
                number(out, text);
            } else if (value instanceof Number) {
                out.append("null"); // NaN or infinite
            } else {
                string(out, text);
            }
        }
    }

    /** Writes a decimal number, whole numbers without a fraction ("200000.0" as 200000). */
    private static void number(final StringBuilder out, final String text) {
        BigDecimal d = new BigDecimal(text);
        BigDecimal whole = d.stripTrailingZeros();
        if (whole.scale() <= 0 && whole.abs().compareTo(LARGEST_PLAIN) < 0) {
            out.append(whole.toPlainString());
        } else {
            out.append(text);
        }
    }

    private static void object(final StringBuilder out, final Map<?, ?> map, final int depth) {
        if (map.isEmpty()) {
            out.append("{}");
            return;
        }
        out.append("{\n");
        Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<?, ?> e = it.next();
            indent(out, depth + 1);
            string(out, String.valueOf(e.getKey()));
            out.append(": ");
            value(out, e.getValue(), depth + 1);
            out.append(it.hasNext() ? ",\n" : "\n");
        }
        indent(out, depth);
        out.append('}');
    }

    private static void array(final StringBuilder out, final Collection<?> list, final int depth) {
        if (list.isEmpty()) {
            out.append("[]");
            return;
        }
        out.append("[\n");
        Iterator<?> it = list.iterator();
        while (it.hasNext()) {
            indent(out, depth + 1);
            value(out, it.next(), depth + 1);
            out.append(it.hasNext() ? ",\n" : "\n");
        }
        indent(out, depth);
        out.append(']');
    }

    private static void indent(final StringBuilder out, final int depth) {
        out.append("  ".repeat(depth));
    }

    private static void string(final StringBuilder out, final String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
