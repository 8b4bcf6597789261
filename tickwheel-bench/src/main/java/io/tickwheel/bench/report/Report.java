package io.tickwheel.bench.report;

import io.tickwheel.bench.timers.TimerCatalog;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything one simulator run produced: where and how it ran, what ran, and every result.
 * The stdout table, the JSON file and the HTML report are three views of it.
 *
 * <p>Threading: immutable once built.
 *
 * @param meta date, JVM, flags, machine, mode and sizes, in output order
 * @param workloads the workloads and scenarios run, in order
 * @param timers the timers run, in order
 * @param results every result, in run order
 */
public record Report(Map<String, Object> meta, List<Entry> workloads, List<Entry> timers,
        List<RunResult> results) {

    /**
     * A workload or timer as the report names it.
     *
     * @param id the id
     * @param name a short name (workloads) or label (timers)
     * @param description what was run (workloads) or the library version (timers)
     * @param scenario true for a scenario preset
     */
    public record Entry(String id, String name, String description, boolean scenario) {
    }

    /**
     * Makes a report; the map and lists are copied.
     *
     * @param meta the run's description
     * @param workloads what ran
     * @param timers against which timers
     * @param results the results
     */
    public Report {
        meta = Collections.unmodifiableMap(new LinkedHashMap<>(meta));
        workloads = List.copyOf(workloads);
        timers = List.copyOf(timers);
        results = List.copyOf(results);
    }

    /**
     * Finds the result of one pair.
     *
     * @param workload the workload id
     * @param timer the timer id
     * @return the result, if that pair ran
     */
    public Optional<RunResult> result(final String workload, final String timer) {
        return results.stream().filter(r -> r.workload().equals(workload)
                && r.timer().equals(timer)).findFirst();
    }

    /**
     * Lists a workload's results in timer order (the empty-JVM baseline last).
     *
     * @param workload the workload id
     * @return its results
     */
    public List<RunResult> resultsOf(final String workload) {
        return results.stream().filter(r -> r.workload().equals(workload)).sorted((a, b) ->
                Integer.compare(order(a.timer()), order(b.timer()))).toList();
    }

    private int order(final String timer) {
        for (int i = 0; i < timers.size(); i++) {
            if (timers.get(i).id().equals(timer)) {
                return i;
            }
        }
        return TimerCatalog.IDLE_JVM.equals(timer) ? Integer.MAX_VALUE : timers.size();
    }

    /**
     * Divides a timer's metric by a base timer's.
     *
     * @param workload the workload id
     * @param timer the timer id
     * @param key the metric name
     * @param base the timer to divide by
     * @return the ratio, or NaN when either is missing
     */
    public double ratio(final String workload, final String timer, final String key,
            final String base) {
        double value = result(workload, timer).map(r -> r.num(key)).orElse(Double.NaN);
        double by = result(workload, base).map(r -> r.num(key)).orElse(Double.NaN);
        if (Double.isNaN(value) || Double.isNaN(by)) {
            return Double.NaN;
        }
        if (by == 0) {
            return value == 0 ? 1.0 : Double.POSITIVE_INFINITY;
        }
        return value / by;
    }

    /**
     * Finds a workload's entry.
     *
     * @param id the workload id
     * @return the entry, if it ran
     */
    public Optional<Entry> workload(final String id) {
        return workloads.stream().filter(w -> w.id().equals(id)).findFirst();
    }
}
