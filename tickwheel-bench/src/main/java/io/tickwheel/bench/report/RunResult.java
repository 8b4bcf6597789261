package io.tickwheel.bench.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one child JVM measured: one workload against one timer.
 *
 * <p>Threading: immutable.
 *
 * @param workload the workload or scenario id, e.g. {@code "W3"}
 * @param timer the timer id, e.g. {@code "netty41-1ms"}
 * @param metrics the measured values by name, as the child wrote them
 * @param error why the run failed, or null
 * @param seconds how long the child JVM ran, start-up included
 */
public record RunResult(String workload, String timer, Map<String, String> metrics, String error,
        double seconds) {

    /**
     * Makes a result; the metrics are copied, keeping their order.
     *
     * @param workload the workload id
     * @param timer the timer id
     * @param metrics the measured values
     * @param error why the run failed, or null
     * @param seconds how long the child ran
     */
    public RunResult {
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    /**
     * Reads a number.
     *
     * @param key the metric name
     * @return the value, or NaN when it is missing or not a number
     */
    public double num(final String key) {
        String text = metrics.get(key);
        if (text == null) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /**
     * Tells whether the run succeeded.
     *
     * @return true when there is no error
     */
    public boolean ok() {
        return error == null;
    }
}
