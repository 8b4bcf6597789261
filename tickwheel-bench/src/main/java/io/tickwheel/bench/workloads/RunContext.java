package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerSpec;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a workload run gets: the timer to make, the sizes, progress output, and the metrics it
 * fills in.
 *
 * <p>Threading: not thread-safe; confined to the thread that runs the workload.
 */
public final class RunContext {

    private final TimerSpec spec;
    private final Sizes sizes;
    private final String label;
    private final List<Metrics> parts = new ArrayList<>();
    private String version;

    /**
     * Makes the context of one run.
     *
     * @param spec the timer under test
     * @param sizes the sizes of this run
     * @param label a prefix for progress lines, e.g. {@code "W3 netty41-1ms"}
     */
    public RunContext(final TimerSpec spec, final Sizes sizes, final String label) {
        this.spec = spec;
        this.sizes = sizes;
        this.label = label;
    }

    /**
     * Returns the timer under test.
     *
     * @return its configuration
     */
    public TimerSpec spec() {
        return spec;
    }

    /**
     * Returns the sizes of this run.
     *
     * @return the sizes
     */
    public Sizes sizes() {
        return sizes;
    }

    /**
     * Makes a fresh timer of the configuration under test; the first one also records the
     * library version.
     *
     * @return the timer
     */
    public BenchTimer newTimer() {
        BenchTimer timer = spec.create();
        if (version == null) {
            version = timer.version();
        }
        return timer;
    }

    /**
     * Makes an empty set of metrics that becomes part of this run's results.
     *
     * @return metrics to fill in
     */
    public Metrics newMetrics() {
        Metrics m = new Metrics();
        parts.add(m);
        return m;
    }

    /**
     * Collects everything measured so far, the library version first.
     *
     * @return the metrics, in the order they were put
     */
    public Metrics results() {
        Metrics all = new Metrics();
        if (version != null) {
            all.put("version", version);
        }
        parts.forEach(all::putAll);
        return all;
    }

    /**
     * Prints a progress line on stderr, stamped with the JVM's uptime.
     *
     * @param format a {@link String#format} pattern
     * @param args its arguments
     */
    public void progress(final String format, final Object... args) {
        long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        System.err.println(String.format(Locale.ROOT, "      %6.2f s %s: ", uptime / 1e3, label)
                + String.format(Locale.ROOT, format, args));
    }
}
