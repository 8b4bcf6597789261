package io.tickwheel.bench;

import io.tickwheel.bench.report.Bars;
import io.tickwheel.bench.report.Column;
import io.tickwheel.bench.report.Columns;
import io.tickwheel.bench.report.Environment;
import io.tickwheel.bench.report.Report;
import io.tickwheel.bench.report.RunResult;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import io.tickwheel.bench.workloads.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The workload simulator: runs BENCH.md's workloads W1 to W7 (and, when asked, the scenario
 * presets) against tickwheel's timers and their peers, each workload against each timer in a
 * fresh JVM, and writes a table on stdout, {@code results.json}, W3's {@code .hgrm} files and
 * a self-contained {@code report.html}. Progress goes to stderr.
 *
 * <p>Usage: {@code java -jar tickwheel-bench.jar [--quick | --full] [--timers a,b]
 * [--workloads W1,W3] [--scenarios [rpc,lease]] [--scale f] [--out dir] [--jvm-flags "..."]};
 * {@code --help} lists the ids.
 *
 * <p>Threading: runs on the main thread; children run one at a time.
 */
public final class Simulator {

    private Simulator() {
    }

    /**
     * Runs the simulator and exits with its status.
     *
     * @param args the command line
     * @throws IOException if an output file cannot be written
     * @throws InterruptedException if interrupted while a child runs
     */
    public static void main(final String[] args) throws IOException, InterruptedException {
        System.exit(run(args, System.out));
    }

    /**
     * Runs the simulator.
     *
     * @param args the command line
     * @param stdout where the table goes
     * @return 0 when every run succeeded, 1 when one failed, 2 for a bad command line
     * @throws IOException if an output file cannot be written
     * @throws InterruptedException if interrupted while a child runs
     */
    public static int run(final String[] args, final PrintStream stdout)
            throws IOException, InterruptedException {
        return run(args, stdout, System.err);
    }

    /**
     * Runs the simulator.
     *
     * @param args the command line
     * @param stdout where the table goes
     * @param stderr where progress and errors go, the children's included
     * @return 0 when every run succeeded, 1 when one failed, 2 for a bad command line
     * @throws IOException if an output file cannot be written
     * @throws InterruptedException if interrupted while a child runs
     */
    public static int run(final String[] args, final PrintStream stdout, final PrintStream stderr)
            throws IOException, InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            stderr.println(e.getMessage());
            stderr.println(Options.USAGE);
            return 2;
        }
        if (options.help) {
            stdout.println(Options.USAGE);
            return 0;
        }
        long start = System.nanoTime();
        double loadBefore = Environment.loadAverage();
        long[] cpuBefore = Environment.cpuAccounts();
        List<Workload> workloads = new ArrayList<>(options.workloads);
        workloads.addAll(options.scenarios);
        List<String[]> plan = plan(workloads, options.timers);
        Path out = options.out;
        Files.createDirectories(out.resolve("logs"));
        stderr.printf(Locale.ROOT, "tickwheel-bench %s run: %d workloads x %d timers = %d "
                + "child JVMs, output in %s%n", options.mode(), workloads.size(),
                options.timers.size(), plan.size(), out.toAbsolutePath());
        ChildLauncher launcher = new ChildLauncher(options.jvmFlags, out.resolve("logs"),
                options.full ? 900 : 300, stderr);
        List<RunResult> results = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            String[] pair = plan.get(i);
            stderr.printf(Locale.ROOT, "[%2d/%d] %s x %s%n", i + 1, plan.size(), pair[0],
                    pair[1]);
            RunResult r = launcher.run(pair[0], pair[1], options.mode(), options.scale);
            stderr.printf(Locale.ROOT, "       %.1f s  %s%n", r.seconds(), headline(r));
            results.add(r);
        }
        double otherCores = Environment.otherProcessesCores(cpuBefore, Environment.cpuAccounts(),
                System.nanoTime() - start);
        Report report = Outputs.report(options, workloads, Outputs.withIdleSubtracted(results),
                loadBefore, otherCores);
        List<Bars.Bar> bars = Bars.evaluate(report);
        String table = Outputs.writeAll(report, bars, out);
        stdout.print(table);
        stdout.flush();
        long failed = results.stream().filter(r -> !r.ok()).count();
        stderr.printf(Locale.ROOT, "done in %.1f s (%d runs, %d failed); report: %s%n",
                (System.nanoTime() - start) / 1e9, results.size(), failed,
                out.resolve("report.html").toAbsolutePath());
        return failed == 0 ? 0 : 1;
    }

    /** Lists the (workload, timer) pairs to run; W4 and W5 start with the empty JVM. */
    private static List<String[]> plan(final List<Workload> workloads,
            final List<TimerSpec> timers) {
        List<String[]> plan = new ArrayList<>();
        for (Workload w : workloads) {
            if ("W4".equals(w.id()) || "W5".equals(w.id())) {
                plan.add(new String[] {w.id(), TimerCatalog.IDLE_JVM});
            }
            for (TimerSpec t : timers) {
                if (w.appliesTo(t)) {
                    plan.add(new String[] {w.id(), t.id()});
                }
            }
        }
        return plan;
    }

    private static String headline(final RunResult r) {
        if (!r.ok()) {
            return "FAILED: " + r.error();
        }
        StringBuilder line = new StringBuilder();
        List<Column> columns = Columns.of(r.workload());
        int shown = 0;
        for (Column c : columns) {
            double value = r.num(c.key());
            if (Double.isFinite(value) && shown < 3) { // derived columns come after all runs
                line.append(c.header()).append(' ')
                        .append(String.format(Locale.ROOT, "%.3f", value)).append("  ");
                shown++;
            }
        }
        return line.toString().trim();
    }
}
