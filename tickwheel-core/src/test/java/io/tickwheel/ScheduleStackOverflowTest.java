package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A real {@link StackOverflowError} at every point of {@code newTimeout}: each scenario of
 * {@link ScheduleStackOverflowChild} (the timer keeps working and counts exactly, every accepted
 * timeout fires, the pending limit leaks no permit) for each timer, in an interpreted child JVM
 * (why interpreted: see that class). The child gets this JVM's JaCoCo agent, if any, so its
 * coverage counts.
 */
class ScheduleStackOverflowTest {

    /** Well inside the JUnit default: a child that hangs is killed and fails its case. */
    private static final long CHILD_TIMEOUT_SECONDS = 90;

    static Stream<Arguments> cases() {
        return Stream.of("timerKeepsWorkingAndCountIsExact", "everyAcceptedTimeoutFires",
                "pendingLimitPermitsEqualPendingTimeouts", "cancelAtEveryDepthWedgesNothing")
                .flatMap(scenario -> IntStream.range(0, ScheduleStackOverflowChild.TIMERS.size())
                        .mapToObj(timer -> Arguments.of(scenario, timer)));
    }

    @ParameterizedTest(name = "{0} on timer {1}")
    @MethodSource("cases")
    void newTimeout_stackOverflowsAtEveryDepth(final String scenario, final int timer) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xint");
        command.add("-ea");
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("-javaagent:") && argument.contains("jacoco")) {
                command.add(argument);
            }
        }
        command.add("-cp");
        // By the classes' own locations: Surefire puts the module under test on the module path.
        command.add(String.join(File.pathSeparator, location(Timer.class),
                location(ScheduleStackOverflowChild.class), location(Assertions.class)));
        command.add(ScheduleStackOverflowChild.class.getName());
        command.add(scenario);
        command.add(Integer.toString(timer));

        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            boolean exited = child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!exited) {
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            String output = output(child);
            assertThat(exited).as("the child finished within %d s; its output:%n%s", CHILD_TIMEOUT_SECONDS, output)
                    .isTrue();
            assertThat(child.exitValue()).as("the child's exit; its output:%n%s", output).isZero();
            assertThat(output.strip()).endsWith("ok");
        } finally {
            child.destroyForcibly();
        }
    }

    private static String location(final Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private static String output(final Process child) throws IOException {
        return new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
