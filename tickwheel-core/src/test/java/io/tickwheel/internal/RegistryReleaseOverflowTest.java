package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stack overflow in the call that lets a registry stripe's lock go must still let it go: the
 * release's handler writes the lock word instead (see {@link TaskRegistry}'s class comment). A
 * real overflow reaches that call only when taking the lock costs less stack than letting it go,
 * which mixed mode gives now and then and a fully interpreted run never; so this runs a child JVM
 * with only {@link RegistryStripe#lock()} compiled, where the sweeps reach the handler in each of
 * the five critical sections ({@link RegistryReleaseOverflowChild}).
 *
 * <p>That the sweeps reach it is checked too, on this very JVM: the same child with the handlers
 * replaced by a rethrow (the registry's source, changed and compiled here) must leave a lock held.
 * If a JVM's compilers changed so that no overflow lands on the release any more, that check
 * fails, rather than this test passing without exercising anything.
 */
class RegistryReleaseOverflowTest {

    private static final int SWEEPS = 120;
    private static final long CHILD_TIMEOUT_SECONDS = 90;
    private static final Pattern HANDLER =
            Pattern.compile("stripe\\.lock = 0; // the store's call overflowed[^\\n]*");
    private static final int HANDLERS = 5;

    @Test
    void overflowInTheReleaseStore_atEveryDepth_leavesNoLockHeld() throws Exception {
        ChildResult result = runChild(List.of());
        assertThat(result.exit).as("child exit; its output: %s", result.output).isZero();
        String[] words = result.lastLine().split(" ", -1);
        assertThat(words).as("child output: %s", result.output).hasSize(3);
        assertThat(words[0]).isEqualTo("ok");
        assertThat(Integer.parseInt(words[1])).isEqualTo(SWEEPS);
        // Each sweep climbs from the bottom of the stack through attempts that overflow.
        assertThat(Integer.parseInt(words[2])).isGreaterThanOrEqualTo(SWEEPS);
    }

    @Test
    void theSweepsReachTheHandler_aRethrowInItsPlaceLeavesALockHeld(@TempDir final Path scratch) throws Exception {
        Path source = moduleDir().resolve(Path.of("src", "main", "java", "io", "tickwheel", "internal",
                "TaskRegistry.java"));
        String original = Files.readString(source);
        Matcher handlers = HANDLER.matcher(original);
        List<String> found = new ArrayList<>();
        while (handlers.find()) {
            found.add(handlers.group());
        }
        assertThat(found).as("the release handlers in %s", source).hasSize(HANDLERS);
        Path mutantSource = scratch.resolve(Path.of("src", "TaskRegistry.java"));
        Files.createDirectories(mutantSource.getParent());
        Files.writeString(mutantSource, handlers.replaceAll("throw overflow;"));
        Path mutantClasses = scratch.resolve("classes");
        Files.createDirectories(mutantClasses);
        Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
        Process compile = new ProcessBuilder(javac.toString(), "-nowarn", "-d", mutantClasses.toString(),
                "-cp", location(TaskRegistry.class), mutantSource.toString()).redirectErrorStream(true).start();
        assertThat(compile.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        String compileOutput = new String(compile.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(compile.exitValue()).as("javac: %s", compileOutput).isZero();

        ChildResult result = runChild(List.of(mutantClasses.toString()));
        assertThat(result.exit).as("child exit with the rethrowing registry; its output: %s", result.output)
                .isIn(1, 2);
        assertThat(result.lastLine()).containsAnyOf("lock left held", "wedged");
    }

    private static ChildResult runChild(final List<String> classPathFirst) throws Exception {
        List<String> path = new ArrayList<>(classPathFirst);
        path.add(location(TaskRegistry.class));
        path.add(location(OrderOnlyHost.class));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xss512k", "-Xbatch",
                "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=compileonly," + RegistryStripe.class.getName() + "::lock",
                "-cp", String.join(File.pathSeparator, path),
                RegistryReleaseOverflowChild.class.getName(), Integer.toString(SWEEPS));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            boolean exited = child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(exited).as("the child finished within %d s", CHILD_TIMEOUT_SECONDS).isTrue();
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return new ChildResult(child.exitValue(), output);
        } finally {
            child.destroyForcibly();
        }
    }

    private static Path moduleDir() throws URISyntaxException {
        // target/classes -> the module's directory
        return Path.of(location(TaskRegistry.class)).getParent().getParent();
    }

    private static String location(final Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /** What a child printed, and its exit value. */
    private record ChildResult(int exit, String output) {
        String lastLine() {
            return output.substring(output.lastIndexOf('\n') + 1);
        }
    }
}
