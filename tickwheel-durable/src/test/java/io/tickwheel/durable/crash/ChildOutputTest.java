package io.tickwheel.durable.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression test for the crash test's own evidence: every line a child wrote before SIGKILL must
 * reach the checker, even lines nobody had read yet when the kill came. The crash test used to read
 * the child's stdout through the process pipe; {@link Process#destroyForcibly()} closes the
 * parent's end of that pipe, so on a loaded machine the lines the reader thread had not caught up
 * with were dropped silently (an acknowledged cancel then looked like a key's last op while the
 * child had scheduled it again). Read through the pipe, this test gets none of the lines.
 *
 * <p>Threading: single-threaded test; the child is a separate process.
 */
class ChildOutputTest {

    private static final int LINES = 2000;

    @TempDir
    Path dir;

    @Test
    void linesWrittenBeforeTheKill_allReachTheChecker_evenIfUnreadAtTheKill() throws Exception {
        Path log = dir.resolve("child.out");
        Path written = dir.resolve("written");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ChildOutputTest.class.getName(), written.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(log.toFile()).start();
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(written) && System.nanoTime() < until && p.isAlive()) {
                Thread.sleep(20);
            }
            assertThat(written).as("the child wrote its lines").exists();
        } finally {
            p.destroyForcibly();
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<String> lines = JournalCrashTest.completeLines(log);
        assertThat(lines).hasSize(LINES);
        assertThat(lines.get(LINES - 1)).isEqualTo("line " + (LINES - 1));
    }

    /**
     * The child: writes the lines (one {@code write} each, as {@link CrashChild} does), then a
     * marker file, then waits for the kill.
     *
     * @param args the marker file
     * @throws Exception never expected
     */
    public static void main(final String[] args) throws Exception {
        FileOutputStream out = new FileOutputStream(FileDescriptor.out);
        for (int i = 0; i < LINES; i++) {
            out.write(("line " + i + "\n").getBytes(StandardCharsets.UTF_8));
        }
        Files.createFile(Path.of(args[0]));
        Thread.sleep(TimeUnit.MINUTES.toMillis(5));
    }
}
