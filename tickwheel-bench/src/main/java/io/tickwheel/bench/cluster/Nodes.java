package io.tickwheel.bench.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVMs of one benchmark run ({@link ClusterNode}) and the fires they report.
 *
 * <p>Threading: one reader thread per child writes the concurrent maps; the main thread reads them.
 */
final class Nodes implements AutoCloseable {

    /** The first fire of one key. */
    record Fire(String node, long fireMillis, long latenessMicros) {
    }

    private final Map<String, Process> children = new LinkedHashMap<>();
    private final Map<String, Fire> first = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> perNode = new ConcurrentHashMap<>();
    private final AtomicLong duplicates = new AtomicLong();
    private final CountDownLatch ready;

    Nodes(final String system, final int count, final String url) throws IOException {
        ready = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            String node = system + "-" + i;
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xms512m", "-Xmx512m", "-XX:+UseParallelGC", "-cp",
                    System.getProperty("java.class.path"), ClusterNode.class.getName(), system, node, url));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            children.put(node, p);
            perNode.put(node, new AtomicLong());
            Thread reader = new Thread(() -> read(node, p), "reader-" + node);
            reader.setDaemon(true);
            reader.start();
        }
    }

    private void read(final String node, final Process p) {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("READY")) {
                    ready.countDown();
                } else if (line.startsWith("F ")) {
                    String[] f = line.split(" ", -1);
                    Fire fire = new Fire(node, Long.parseLong(f[2]), Long.parseLong(f[3]));
                    if (first.putIfAbsent(f[1], fire) != null) {
                        duplicates.incrementAndGet();
                    }
                    perNode.get(node).incrementAndGet();
                }
            }
        } catch (IOException e) {
            // the child died (killed on purpose in the takeover phase)
        }
    }

    void awaitReady() throws InterruptedException {
        if (!ready.await(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("nodes did not start within 120 s");
        }
    }

    Fire fire(final String key) {
        return first.get(key);
    }

    long duplicates() {
        return duplicates.get();
    }

    /**
     * Kills (SIGKILL) a node: {@code name}, or if that is null (or not one of ours) the node that
     * fired the most so far.
     *
     * @return the name of the node killed
     */
    String kill(final String name) throws InterruptedException {
        String victim = name != null && children.containsKey(name) ? name
                : perNode.entrySet().stream().max((a, b) -> Long.compare(a.getValue().get(), b.getValue().get()))
                        .orElseThrow().getKey();
        children.get(victim).destroyForcibly().waitFor();
        return victim;
    }

    @Override
    public void close() throws IOException {
        for (Process p : children.values()) {
            p.getOutputStream().close();
        }
        try {
            for (Process p : children.values()) {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                }
            }
        } catch (InterruptedException e) {
            children.values().forEach(Process::destroyForcibly);
            Thread.currentThread().interrupt();
        }
    }
}
