package io.tickwheel.bench.workloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one run measured: named values in the order they were put, written by the child JVM as
 * {@code key=value} lines and read back by the simulator. Keys name their unit
 * ({@code cpuNsPerOp}, {@code latenessP99Ms}, {@code bytesPerTimeout}).
 *
 * <p>Threading: not thread-safe; confined to the thread that runs the workload.
 */
public final class Metrics {

    /** The key that lists the metrics left out because their value was not finite. */
    public static final String NOT_MEASURED = "notMeasured";

    private final Map<String, String> values = new LinkedHashMap<>();

    /**
     * Puts a number. A value that is not finite (a division by a zero count, say) means "not
     * measured": it is left out, so no NaN or Infinity reaches a table, the JSON or the report,
     * and its key is listed under {@code notMeasured} instead.
     *
     * @param key the metric name
     * @param value the value
     */
    public void put(final String key, final double value) {
        if (Double.isFinite(value)) {
            values.put(key, Double.toString(value));
            return;
        }
        values.remove(key);
        String earlier = values.get(NOT_MEASURED);
        values.put(NOT_MEASURED, earlier == null ? key : earlier + "," + key);
    }

    /**
     * Puts a count.
     *
     * @param key the metric name
     * @param value the value
     */
    public void put(final String key, final long value) {
        values.put(key, Long.toString(value));
    }

    /**
     * Puts a text (one line).
     *
     * @param key the metric name
     * @param value the value; line breaks are replaced by spaces
     */
    public void put(final String key, final String value) {
        values.put(key, value.replace('\n', ' ').replace('\r', ' '));
    }

    /**
     * Puts every value of another set, after this one's.
     *
     * @param other the values to add
     */
    public void putAll(final Metrics other) {
        values.putAll(other.values);
    }

    /**
     * Returns the values.
     *
     * @return an unmodifiable view, in insertion order
     */
    public Map<String, String> asMap() {
        return Collections.unmodifiableMap(values);
    }

    /**
     * Writes the values as {@code key=value} lines.
     *
     * @param file where to write
     * @throws IOException if the file cannot be written
     */
    public void write(final Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        values.forEach((k, v) -> lines.add(k + "=" + v));
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    /**
     * Reads values written by {@link #write(Path)}.
     *
     * @param file the file
     * @return the values, in file order
     * @throws IOException if the file cannot be read
     */
    public static Map<String, String> read(final Path file) throws IOException {
        Map<String, String> map = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                map.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return map;
    }
}
