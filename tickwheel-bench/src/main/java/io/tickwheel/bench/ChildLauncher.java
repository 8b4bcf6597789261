package io.tickwheel.bench;

import io.tickwheel.bench.report.RunResult;
import io.tickwheel.bench.workloads.Metrics;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one workload against one timer in a fresh JVM: the same {@code java} binary and class
 * path as this one, the chosen flags, {@link ChildMain} as the entry point. The child's stderr
 * (its progress) is copied line by line to the simulator's progress stream; its stdout goes to
 * a log file in the output directory.
 *
 * <p>Threading: not thread-safe; used by the simulator's main thread, one child at a time. One
 * copier thread per child writes the child's stderr to the progress stream and is joined
 * before {@link #run} returns.
 */
final class ChildLauncher {

    private final List<String> jvmFlags;
    private final Path logDir;
    private final long timeoutSeconds;
    private final PrintStream progress;

    ChildLauncher(final List<String> jvmFlags, final Path logDir, final long timeoutSeconds,
            final PrintStream progress) {
        this.jvmFlags = List.copyOf(jvmFlags);
        this.logDir = logDir;
        this.timeoutSeconds = timeoutSeconds;
        this.progress = progress;
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
                    .redirectOutput(log.toFile())
                    .start();
            Thread copier = new Thread(() -> copy(child.getErrorStream()),
                    "child-stderr-" + workload + "-" + timer);
            copier.setDaemon(true);
            copier.start();
            boolean exited = child.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!exited) {
                child.destroyForcibly().waitFor();
            }
            copier.join(TimeUnit.SECONDS.toMillis(10)); // the pipe closes when the child exits
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

    /** Copies the child's stderr to the progress stream until the child closes it. */
    private void copy(final InputStream stderr) {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(stderr, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                progress.println(line);
            }
        } catch (IOException e) {
            progress.println("(the child's stderr could not be read: " + e + ")");
        }
    }
}
