package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The first slow task a timer reports must not hold up its worker. Until 2026-11-29 the report
 * sent its JFR event by creating the event object, whose class's first load, in a JVM where no
 * recording had initialized JFR, loaded JFR's whole metadata on the worker thread: 150 to 250 ms
 * on a 2-core VM during which no timeout fired (found after a GC pause made a burst of tiny
 * tasks look slow: every timeout due in the next quarter of a second fired that late). Run in a
 * fresh JVM, because any earlier test that records JFR events would have paid that cost already.
 */
class SlowTaskReportTest {

    private static final long CHILD_TIMEOUT_SECONDS = 60;
    /** Generous for a loaded 2-core machine; the slow report's stall was 150 to 250 ms. */
    private static final long WORST_LATENESS_MICROS = 60_000;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hier", "hashed"})
    void firstSlowTaskReport_doesNotHoldUpLaterTimeouts(final String timer) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("-javaagent:") && argument.contains("jacoco")) {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(String.join(File.pathSeparator, location(Timer.class), location(SlowTaskReportChild.class)));
        command.add(SlowTaskReportChild.class.getName());
        command.add(timer);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // Options from the environment could start a recording, which initializes JFR up front.
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        Process child = builder.start();
        try {
            boolean exited = child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!exited) {
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // else reading its output blocks
            }
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(exited).as("the child finished within %d s; its output:%n%s", CHILD_TIMEOUT_SECONDS, output)
                    .isTrue();
            assertThat(child.exitValue()).as("the child's exit; its output:%n%s", output).isZero();
            assertThat(output).as("the child reported the slow task; its output:%n%s", output)
                    .contains("slow-task threshold").contains("jfr initialized false");
            String last = output.substring(output.lastIndexOf('\n') + 1);
            assertThat(last).startsWith("worst ");
            long worst = Long.parseLong(last.substring("worst ".length()));
            assertThat(worst).as("the worst lateness (us) of the timeouts due after the slow task; output:%n%s",
                    output).isLessThan(WORST_LATENESS_MICROS);
        } finally {
            child.destroyForcibly();
        }
    }

    private static String location(final Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
