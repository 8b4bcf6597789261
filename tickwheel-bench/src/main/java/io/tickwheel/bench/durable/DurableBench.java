package io.tickwheel.bench.durable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The durable benchmarks D0 to D3 (see the issue and docs/BENCHMARKS.md, "Durable"). Usage:
 * <pre>
 * java -cp tickwheel-bench/target/tickwheel-bench.jar io.tickwheel.bench.durable.DurableBench \
 *     [D0] [D1] [D2=1000000,10000000] [D3=1000000] [--dir path] [--seconds 3] [--window 60]
 * </pre>
 * With no part named, D0 and D1 run. The journal directories go under {@code --dir} (default
 * {@code ./durable-bench-tmp}) and are deleted after each run. Figures go to stdout.
 *
 * <p>Threading: runs on the main thread.
 */
public final class DurableBench {

    private DurableBench() {
    }

    /**
     * Runs the named parts.
     *
     * @param args the parts and options
     * @throws Exception if a run fails
     */
    public static void main(final String[] args) throws Exception {
        Path root = Path.of("durable-bench-tmp");
        long seconds = 3;
        long window = 60;
        List<String> parts = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> root = Path.of(args[++i]);
                case "--seconds" -> seconds = Long.parseLong(args[++i]);
                case "--window" -> window = Long.parseLong(args[++i]);
                default -> parts.add(args[i]);
            }
        }
        if (parts.isEmpty()) {
            parts = List.of("D0", "D1");
        }
        Files.createDirectories(root);
        System.out.printf(Locale.ROOT, "durable bench: java %s, %d cpus, max heap %d MiB, dir %s%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, root.toAbsolutePath());
        for (String part : parts) {
            String name = part.contains("=") ? part.substring(0, part.indexOf('=')) : part;
            String[] sizes = part.contains("=") ? part.substring(part.indexOf('=') + 1).split(",") : new String[0];
            switch (name) {
                case "D0" -> System.out.println(DiskBench.run(fresh(root), 2000));
                case "D1" -> d1(root, seconds);
                case "D2" -> {
                    for (String s : sizes.length == 0 ? new String[] {"1000000"} : sizes) {
                        System.out.println(RecoveryBench.run(fresh(root), Long.parseLong(s)));
                    }
                }
                case "D3" -> System.out.println(FireBench.run(fresh(root),
                        Long.parseLong(sizes.length == 0 ? "1000000" : sizes[0]), window));
                default -> throw new IllegalArgumentException("unknown part " + part + " (D0, D1, D2=n,.., D3=n)");
            }
        }
        delete(root);
    }

    private static void d1(final Path root, final long seconds) throws Exception {
        long millis = seconds * 1000;
        for (boolean fsync : new boolean[] {true, false}) {
            for (int callers : new int[] {1, 16, 256}) {
                System.out.println(AckBench.sync(fresh(root), fsync, callers, millis));
            }
            for (int w : AckBench.ASYNC_WINDOWS) {
                System.out.println(AckBench.async(fresh(root), fsync, w, millis));
            }
        }
    }

    private static Path fresh(final Path root) throws IOException {
        delete(root);
        Files.createDirectories(root);
        return root;
    }

    private static void delete(final Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
