package io.tickwheel.bench;

import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import io.tickwheel.bench.workloads.HostSteal;
import io.tickwheel.bench.workloads.Metrics;
import io.tickwheel.bench.workloads.RunContext;
import io.tickwheel.bench.workloads.Sizes;
import io.tickwheel.bench.workloads.Workload;
import io.tickwheel.bench.workloads.WorkloadCatalog;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/**
 * The entry point of each child JVM the {@link Simulator} launches: runs one workload against
 * one timer and writes what it measured to a file, as {@code key=value} lines. Not meant to be
 * run by hand.
 *
 * <p>Arguments: {@code <workload> <timer> <quick|full> <scale> <result file>}.
 *
 * <p>Threading: runs on the main thread of its own JVM.
 */
public final class ChildMain {

    private ChildMain() {
    }

    /**
     * Runs one workload against one timer.
     *
     * @param args workload id, timer id, mode, scale, result file
     * @throws IOException if the result file cannot be written
     */
    public static void main(final String[] args) throws IOException {
        if (args.length != 5) {
            throw new IllegalArgumentException(
                    "usage: ChildMain <workload> <timer> <quick|full> <scale> <result file>");
        }
        Workload workload = WorkloadCatalog.find(args[0])
                .orElseThrow(() -> new IllegalArgumentException("unknown workload " + args[0]));
        TimerSpec spec = TimerCatalog.find(args[1])
                .orElseThrow(() -> new IllegalArgumentException("unknown timer " + args[1]));
        Sizes sizes = new Sizes("full".equals(args[2]), Double.parseDouble(args[3]));
        Path result = Path.of(args[4]);
        RunContext ctx = new RunContext(spec, sizes, workload.id() + " " + spec.id());
        String error = null;
        HostSteal steal = HostSteal.machine();
        HostSteal.Reading before = steal.read();
        double stealPct = Double.NaN;
        try {
            ctx.progress("started");
            workload.run(ctx);
            stealPct = HostSteal.percent(before, steal.read());
            if (Double.isNaN(stealPct)) {
                ctx.progress("done");
            } else {
                ctx.progress("done (the host took %.1f %% of the cores' time)", stealPct);
            }
        } catch (InterruptedException | RuntimeException | LinkageError e) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            System.err.println(trace);
            error = e.toString();
        }
        Metrics metrics = ctx.results();
        if (!Double.isNaN(stealPct) && !metrics.asMap().containsKey(HostSteal.KEY)) {
            metrics.put(HostSteal.KEY, stealPct); // the whole run, unless the workload measured its window
        }
        if (error != null) {
            metrics.put("error", error);
        }
        metrics.write(result);
        int status = error == null ? 0 : 1;
        System.exit(status);
    }
}
