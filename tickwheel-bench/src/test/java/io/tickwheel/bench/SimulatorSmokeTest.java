package io.tickwheel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.bench.workloads.Sizes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the simulator once end to end with tiny counts (two timers; W1, W3, and the idle
 * workloads W4 and W5 with their empty-JVM baseline, each in a child JVM) and checks its outputs:
 * that every file exists, parses and adds up, that no NaN or infinity reaches any of them, and
 * that tickwheel's timers fired nothing early and lost nothing. It asserts no time.
 */
class SimulatorSmokeTest {

    private static final List<String> TIMERS = List.of("tickwheel-hier-1ms", "netty41-1ms");
    private static final double SCALE = 0.01;
    /** A non-finite number as Java, JSON or a hand-written formatter would print it. */
    private static final Pattern NON_FINITE = Pattern.compile("(?i)\\bnan\\b|infinity|\\binf\\b");

    @TempDir
    static Path out;

    private static int status;
    private static String table;
    private static String progress;

    @BeforeAll
    @Timeout(300) // ten child JVMs, two of them idling 1 s each, on a machine other builds share
    static void runSimulator() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        status = Simulator.run(new String[] {"--quick", "--scale", Double.toString(SCALE),
            "--timers", String.join(",", TIMERS), "--workloads", "W1,W3,W4,W5",
            "--out", out.toString(), "--jvm-flags", "-Xms64m -Xmx256m -XX:+UseSerialGC"},
                new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
        table = stdout.toString(StandardCharsets.UTF_8);
        progress = stderr.toString(StandardCharsets.UTF_8);
    }

    @Test
    @SuppressWarnings("unchecked") // reason: the JSON reader returns untyped maps and lists
    void run_tinyQuickRun_writesConsistentOutputs() throws Exception {
        assertThat(status).as(table + progress).isZero();
        assertThat(table).contains("W1 schedule", "W3 accuracy", "W4 idle", "W5 far set",
                "Summary", TIMERS.get(0), TIMERS.get(1));
        assertThat(out.resolve("table.txt")).hasContent(table);
        String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "</html>")
                .contains(TIMERS.get(0), TIMERS.get(1))
                .doesNotContain("<script", "<link", "src=", "url(");
        assertThat(html.indexOf("<h2>Summary</h2>")).as("the summary opens the report")
                .isPositive().isLessThan(html.indexOf("<h2>Bars of BENCH.md</h2>"));

        Map<String, Object> json = (Map<String, Object>) MiniJson.parse(
                Files.readString(out.resolve("results.json"), StandardCharsets.UTF_8));
        assertThat((Map<String, Object>) json.get("meta")).containsKeys("date", "jvm",
                "childJvmFlags", "machine", "cores", "memoryGiB");
        List<Map<String, Object>> results = (List<Map<String, Object>>) json.get("results");
        assertThat(results).hasSize(2 * TIMERS.size() + 2 * (TIMERS.size() + 1));
        Sizes sizes = new Sizes(false, SCALE);
        for (Map<String, Object> r : results) {
            assertThat(r.get("error")).as("error of %s", r).isNull();
            Map<String, Object> m = (Map<String, Object>) r.get("metrics");
            switch ((String) r.get("workload")) {
                case "W1" -> {
                    assertThat(m.get("count")).isEqualTo((double) sizes.scheduleCount());
                    assertThat(m.get("rounds")).isEqualTo((double) sizes.rounds());
                }
                case "W3" -> {
                    double count = (double) m.get("count");
                    assertThat(count).isEqualTo((double) sizes.accuracyCount());
                    assertThat((double) m.get("fired") + (double) m.get("missing"))
                            .isEqualTo(count);
                    assertThat(m.get("duplicates")).isEqualTo(0.0);
                    assertThat(m.get("early")).as("timeouts fired before their deadline, %s", r).isEqualTo(0.0);
                    assertThat(m.get("missing")).as("timeouts that never fired, %s", r).isEqualTo(0.0);
                    checkHgrm(out.resolve("W3-" + r.get("timer") + ".hgrm"),
                            (double) m.get("fired") - (double) m.get("early"));
                }
                default -> assertThat(m).as("%s", r).containsKeys("timerThreadCpuMsPerSec",
                        "processCpuMsPerSec");
            }
        }
        assertThat((List<Object>) json.get("bars")).isNotEmpty();
    }

    @Test
    void run_tinyQuickRun_printsNoNanOrInfinityAnywhere() throws IOException {
        List<String> texts = new ArrayList<>(List.of(table, progress));
        try (Stream<Path> files = Files.list(out)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                texts.add(file.getFileName() + ":\n"
                        + Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        assertThat(texts).hasSizeGreaterThan(5); // stdout, stderr, table, json, html, hgrm...
        for (String text : texts) {
            Matcher m = NON_FINITE.matcher(text);
            assertThat(m.find()).as("non-finite number in:\n%s", m.find(0)
                    ? text.substring(Math.max(0, m.start() - 300),
                            Math.min(text.length(), m.end() + 100)) : "").isFalse();
        }
    }

    /** Kept apart from the output checks: it is about the timers, not the simulator. */
    @Test
    @SuppressWarnings("unchecked") // reason: the JSON reader returns untyped maps and lists
    void run_tinyQuickRun_tickwheelFiresNothingEarlyAndLosesNothing() throws Exception {
        Map<String, Object> json = (Map<String, Object>) MiniJson.parse(
                Files.readString(out.resolve("results.json"), StandardCharsets.UTF_8));
        List<Map<String, Object>> w3 = ((List<Map<String, Object>>) json.get("results")).stream()
                .filter(r -> "W3".equals(r.get("workload"))
                        && ((String) r.get("timer")).startsWith("tickwheel"))
                .toList();
        assertThat(w3).isNotEmpty();
        for (Map<String, Object> r : w3) {
            Map<String, Object> m = (Map<String, Object>) r.get("metrics");
            assertThat(m.get("fired")).as("fired of %s", r.get("timer"))
                    .isEqualTo((double) new Sizes(false, SCALE).accuracyCount());
            assertThat(m.get("early")).as("early of %s", r.get("timer")).isEqualTo(0.0);
            assertThat(m.get("missing")).as("missing of %s", r.get("timer")).isEqualTo(0.0);
        }
    }

    private static void checkHgrm(final Path file, final double expectedCount) throws Exception {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).contains("Value", "Percentile", "TotalCount");
        Matcher total = Pattern.compile("Total count\\s*=\\s*(\\d+)").matcher(text);
        assertThat(total.find()).as(text).isTrue();
        assertThat(Double.parseDouble(total.group(1))).isEqualTo(expectedCount);
    }
}
