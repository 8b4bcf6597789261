package io.tickwheel.durable.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@link StackOverflowError} at every point of a deep caller's hand-off of an op to the
 * journal's writer, in an interpreted child JVM ({@link SubmitStackOverflowChild}): an overflow after
 * the op is queued and before the writer is woken must not leave the writer asleep, with every later
 * schedule and cancel waiting behind it. The child gets this JVM's JaCoCo agent, if any, so its
 * coverage counts.
 */
class SubmitStackOverflowTest {

    /** Well inside the JUnit default: a child that hangs is killed and fails the test. */
    private static final long CHILD_TIMEOUT_SECONDS = 60;

    @TempDir
    Path dir;

    @Test
    void submitOverflowsAtEveryDepth_laterOpsStillComplete() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xint");
        command.add("-ea");
        // From the command line (java.management is not read by this module).
        for (String argument : ProcessHandle.current().info().arguments().orElse(new String[0])) {
            if (argument.startsWith("-javaagent:") && argument.contains("jacoco")) {
                command.add(argument);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                SubmitStackOverflowChild.class.getName(), dir.resolve("journal").toString()));
        // To a file, read once the child is gone: a pipe read after a forced kill fails ("Stream closed").
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            boolean exited = child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!exited) {
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(exited).as("the child finished within %d s; its output:%n%s", CHILD_TIMEOUT_SECONDS, output)
                    .isTrue();
            assertThat(child.exitValue()).as("the child's exit; its output:%n%s", output).isZero();
            assertThat(output.strip()).endsWith("ok");
        } finally {
            child.destroyForcibly();
        }
    }
}
