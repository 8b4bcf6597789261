package io.tickwheel.bench;

import io.tickwheel.bench.report.RunResult;
import io.tickwheel.bench.workloads.Metrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one workload against one timer in a fresh JVM: the same {@code java} binary and class
 * path as this one, the chosen flags, {@link ChildMain} as the entry point. The child's stderr
 * (its progress) passes through; its stdout goes to a log file in the output directory.
 *
 * <p>Threading: not thread-safe; used by the simulator's main thread, one child at a time.
 */
final class ChildLauncher {

    private final List<String> jvmFlags;
    private final Path logDir;
    private final long timeoutSeconds;

    ChildLauncher(final List<String> jvmFlags, final Path logDir, final long timeoutSeconds) {
        this.jvmFlags = List.copyOf(jvmFlags);
        this.logDir = logDir;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** The java binary running this JVM. */
    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    RunResult run(final String workload, final String timer, final String mode, final double scale)
            throws IOException, InterruptedException {
        Path result = Files.createTempFile("tickwheel-bench-", ".result");
        try {
            List<String> command = new ArrayList<>();
            command.add(javaBinary());
            command.addAll(jvmFlags);
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(ChildMain.class.getName());
            command.add(workload);
            command.add(timer);
            command.add(mode);
            command.add(Double.toString(scale));
            command.add(result.toString());
            Path log = logDir.resolve(workload + "-" + timer + ".log");
            long t0 = System.nanoTime();
            Process child = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(log.toFile())
                    .start();
            boolean exited = child.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!exited) {
                child.destroyForcibly().waitFor();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            Map<String, String> metrics = Files.size(result) > 0 ? Metrics.read(result) : Map.of();
            String error = metrics.get("error");
            if (!exited) {
                error = "timed out after " + timeoutSeconds + " s";
            } else if (error == null && child.exitValue() != 0) {
                error = "child JVM exited with status " + child.exitValue() + " (see " + log + ")";
            }
            return new RunResult(workload, timer, metrics, error, seconds);
        } finally {
            Files.deleteIfExists(result);
        }
    }
}
