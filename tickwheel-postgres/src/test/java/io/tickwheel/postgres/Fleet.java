package io.tickwheel.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Child JVMs running {@link ClusterChild} on one table, and the fires they report on stdout.
 *
 * <p>Threading: one reader thread per child appends to a concurrent queue; the test thread reads it.
 */
final class Fleet implements AutoCloseable {

    /** One fire as a child reported it. */
    record Fire(String node, String key, long version, long slice, long epoch, long wallMillis) {
    }

    private final Map<String, Process> children = new HashMap<>();
    private final ConcurrentLinkedQueue<Fire> fires = new ConcurrentLinkedQueue<>();
    private final CountDownLatch ready;

    Fleet(final String table, final Duration lease, final String... nodes) throws IOException {
        this(table, lease, false, nodes);
    }

    Fleet(final String table, final Duration lease, final boolean durable, final String... nodes) throws IOException {
        ready = new CountDownLatch(nodes.length);
        for (String node : nodes) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> cmd = new ArrayList<>(List.of(java,
                    "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    ClusterChild.class.getName(), table, node, Long.toString(lease.toMillis()),
                    durable ? "durable" : "driver"));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            children.put(node, p);
            Thread reader = new Thread(() -> read(p), "fleet-reader-" + node);
            reader.setDaemon(true);
            reader.start();
        }
    }

    private void read(final Process p) {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split(" ", -1);
                if (f[0].equals("READY")) {
                    ready.countDown();
                } else if (f[0].equals("F")) {
                    fires.add(new Fire(f[1], f[2] + "/" + f[3], Long.parseLong(f[4]), Long.parseLong(f[5]),
                            Long.parseLong(f[6]), Long.parseLong(f[7])));
                }
            }
        } catch (IOException e) {
            // the child died: its fires so far are recorded
        }
    }

    void awaitReady() throws InterruptedException {
        if (!ready.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("child JVMs did not open their stores within 60 s");
        }
    }

    List<Fire> fires() {
        return new ArrayList<>(fires);
    }

    Process process(final String node) {
        return children.get(node);
    }

    /** Sends a signal (STOP, CONT) to a child. */
    void signal(final String node, final String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(children.get(node).pid())).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + signal + " failed for " + node);
        }
    }

    @Override
    public void close() {
        for (Process p : children.values()) {
            try {
                p.getOutputStream().close();
            } catch (IOException e) {
                // already dead
            }
        }
        try {
            for (Process p : children.values()) {
                if (!p.waitFor(15, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                }
            }
        } catch (InterruptedException e) {
            children.values().forEach(Process::destroyForcibly);
            Thread.currentThread().interrupt();
        }
    }
}
