package io.tickwheel.bench.report;

/**
 * One column of a workload's table: a metric, its header and how many decimals to print.
 *
 * <p>Threading: immutable.
 *
 * @param key the metric name
 * @param header the column header
 * @param decimals decimals to print for values under 1000
 */
public record Column(String key, String header, int decimals) {
}
