package io.tickwheel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.bench.workloads.Sizes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the simulator end to end with tiny counts (two timers, two workloads, each in a child
 * JVM) and checks that every output exists, parses and adds up. It asserts no time.
 */
class SimulatorSmokeTest {

    private static final List<String> TIMERS = List.of("tickwheel-hier-1ms", "netty41-1ms");
    private static final double SCALE = 0.01;

    @TempDir
    Path out;

    @Test
    @SuppressWarnings("unchecked") // reason: the JSON reader returns untyped maps and lists
    void run_tinyQuickRun_writesConsistentOutputs() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        int status = Simulator.run(new String[] {"--quick", "--scale", Double.toString(SCALE),
            "--timers", String.join(",", TIMERS), "--workloads", "W1,W3",
            "--out", out.toString(), "--jvm-flags", "-Xms64m -Xmx256m -XX:+UseSerialGC"},
                new PrintStream(stdout, true, StandardCharsets.UTF_8));

        String table = stdout.toString(StandardCharsets.UTF_8);
        assertThat(status).as(table).isZero();
        assertThat(table).contains("W1 schedule", "W3 accuracy", TIMERS.get(0), TIMERS.get(1));
        assertThat(out.resolve("table.txt")).hasContent(table);
        String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "</html>")
                .contains(TIMERS.get(0), TIMERS.get(1))
                .doesNotContain("<script", "<link", "src=", "url(");

        Map<String, Object> json = (Map<String, Object>) MiniJson.parse(
                Files.readString(out.resolve("results.json"), StandardCharsets.UTF_8));
        assertThat((Map<String, Object>) json.get("meta")).containsKeys("date", "jvm",
                "childJvmFlags", "machine", "cores", "memoryGiB");
        List<Map<String, Object>> results = (List<Map<String, Object>>) json.get("results");
        assertThat(results).hasSize(4);
        Sizes sizes = new Sizes(false, SCALE);
        for (Map<String, Object> r : results) {
            assertThat(r.get("error")).as("error of %s", r).isNull();
            Map<String, Object> m = (Map<String, Object>) r.get("metrics");
            if ("W1".equals(r.get("workload"))) {
                assertThat(m.get("count")).isEqualTo((double) sizes.scheduleCount());
            } else {
                double count = (double) m.get("count");
                assertThat(count).isEqualTo((double) sizes.accuracyCount());
                assertThat((double) m.get("fired") + (double) m.get("missing")).isEqualTo(count);
                assertThat(m.get("duplicates")).isEqualTo(0.0);
                checkHgrm(out.resolve("W3-" + r.get("timer") + ".hgrm"),
                        (double) m.get("fired") - (double) m.get("early"));
            }
        }
        assertThat((List<Object>) json.get("bars")).isNotEmpty();
    }

    private static void checkHgrm(final Path file, final double expectedCount) throws Exception {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).contains("Value", "Percentile", "TotalCount");
        Matcher total = Pattern.compile("Total count\\s*=\\s*(\\d+)").matcher(text);
        assertThat(total.find()).as(text).isTrue();
        assertThat(Double.parseDouble(total.group(1))).isEqualTo(expectedCount);
    }
}
