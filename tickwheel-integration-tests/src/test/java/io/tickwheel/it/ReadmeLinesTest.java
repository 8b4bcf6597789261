package io.tickwheel.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Keeps the README's "Use it with Lettuce, AsyncHttpClient, Caffeine, Reactor" section true: each of
 * its Java blocks is introduced by {@code <!-- lines of FILE -->}, and every code line of the block
 * (comments aside) must appear, trimmed, as a line of that test file, which runs it against the real
 * client. Editing an example without its test, or the reverse, fails the build.
 */
class ReadmeLinesTest {

    private static final String SECTION = "## Use it with Lettuce, AsyncHttpClient, Caffeine, Reactor";
    private static final Pattern BLOCK = Pattern.compile(
            "<!-- lines of ([A-Za-z]+\\.java) -->\\s*```java\\n(.*?)```", Pattern.DOTALL);
    private static final Path TESTS = Path.of("src/test/java/io/tickwheel/it");

    @Test
    void everyExampleLine_isALineOfItsTest() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("tickwheel.readme", "../README.md")),
                StandardCharsets.UTF_8);
        int start = readme.indexOf(SECTION);
        assertThat(start).as("README has the section \"%s\"", SECTION).isNotNegative();
        int end = readme.indexOf("\n## ", start + SECTION.length());
        String section = readme.substring(start, end < 0 ? readme.length() : end);

        Matcher blocks = BLOCK.matcher(section);
        List<String> files = new ArrayList<>();
        while (blocks.find()) {
            String file = blocks.group(1);
            files.add(file);
            Set<String> testLines = Files.readAllLines(TESTS.resolve(file), StandardCharsets.UTF_8).stream()
                    .map(String::trim).collect(Collectors.toSet());
            for (String line : blocks.group(2).lines().toList()) {
                String code = line.trim();
                if (code.isEmpty() || code.startsWith("//")) {
                    continue;
                }
                assertThat(testLines).as("README line in the block of %s", file).contains(code);
            }
        }
        assertThat(files).as("the section's checked blocks").contains(
                "LettuceTest.java", "AsyncHttpClientTest.java", "CaffeineTest.java", "ReactorTest.java");
    }
}
