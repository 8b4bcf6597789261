package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the core's picture true, from its import graph rather than by eye: every class of
 * {@code src/main/java} has a layer, and no class uses one above its own, nor takes part in a
 * cycle. An edge is an import of a tickwheel class, a fully qualified use of one, or a use of a
 * same-package class by simple name in code (comments and string literals do not count).
 *
 * <p>The public interfaces {@code Timer}, {@code Timeout} and {@code TimerTask} name each other
 * (a timeout hands back its timer and task: that is the API of the specification), so the check
 * treats the bottom layer as one unit; every other class must be acyclic on its own.
 */
class LayeringTest {

    /** Bottom to top; a class may use its own layer and the ones before it. */
    static final List<Layer> LAYERS = List.of(
            new Layer("api", "Timer", "Timeout", "TimerTask"),
            new Layer("base", "Checks", "Clock", "PaddedLongs", "NamedThreadFactory", "Ticks", "HandOffTask",
                    "SystemProperties", "LogBuckets", "LogHistogram", "HistogramData", "StatsSnapshot",
                    "StatsSource", "SlowTaskEvent", "TimerStatisticsEvent", "JfrEvents", "JfrSupport"),
            new Layer("structures", "TimeoutOwner", "TimeoutNode", "BucketArrays", "TimingWheel", "HashedWheel",
                    "HierarchicalWheel", "PendingLimit", "NodeQueue", "NodeLanes", "WakeMarks", "OwnLane"),
            new Layer("engine", "HandOff", "LaneTransfer", "WorkerControl", "Worker", "LeakGuard", "Lifecycle",
                    "TimerOptions", "TimerCore", "StatsRecorder", "TimedTask", "InlineTiming"),
            new Layer("adapters", "SpellWait", "RegistryStripe",
                    "TaskRegistry", "CompletionExecutor", "ScheduledTask", "ScheduledExecutorCore",
                    "FuturesTimeoutTask"),
            new Layer("facades", "TimerStats", "HashedWheelTimer", "HierarchicalWheelTimer", "Timers",
                    "WheelScheduledExecutorService", "TimeoutFutures"));

    private static final Path SOURCES = Paths.get("src", "main", "java");
    private static final Pattern COMMENTS_AND_LITERALS = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])+'", Pattern.DOTALL);
    private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.tickwheel\\.(?:internal\\.)?([A-Z]\\w*)");
    private static final Pattern IDENTIFIER = Pattern.compile("\\b[A-Z]\\w*\\b");

    /** One layer: a name and the simple class names in it. */
    record Layer(String name, Set<String> classes) {
        Layer(final String name, final String... classes) {
            this(name, Set.of(classes));
        }
    }

    @Test
    void importGraph_everyClassHasALayer_noEdgeGoesUp_noCycle() throws IOException {
        Map<String, Set<String>> graph = readGraph(SOURCES);
        Map<String, Integer> layerOf = layerIndex();
        Set<String> unassigned = new TreeSet<>(graph.keySet());
        unassigned.removeAll(layerOf.keySet());
        assertThat(unassigned).as("classes without a layer (add them to LAYERS)").isEmpty();
        assertThat(new TreeSet<>(layerOf.keySet())).as("layered classes that no longer exist")
                .isSubsetOf(graph.keySet());

        List<String> upward = upwardEdges(graph, layerOf);
        List<List<String>> cycles = cycles(graph, layerOf);
        long edges = graph.values().stream().mapToLong(Set::size).sum();
        System.out.printf(Locale.ROOT, "LayeringTest: %d classes in %d layers, %d edges, %d upward, %d cycles%n",
                graph.size(), LAYERS.size(), edges, upward.size(), cycles.size());
        assertThat(upward).as("edges from a lower layer to a higher one").isEmpty();
        assertThat(cycles).as("cycles outside the api layer").isEmpty();
        assertThat(edges).as("the parser found the graph").isGreaterThan(60);
    }

    @Test
    void checker_plantedUpwardEdgeAndCycle_areReported() {
        Map<String, Set<String>> graph = new TreeMap<>();
        graph.put("TimeoutNode", Set.of("TimerCore", "Timer"));
        graph.put("TimerCore", Set.of("TimeoutNode"));
        graph.put("Timer", Set.of("Timeout"));
        graph.put("Timeout", Set.of("Timer"));
        Map<String, Integer> layerOf = layerIndex();
        assertThat(upwardEdges(graph, layerOf)).containsExactly("TimeoutNode (structures) -> TimerCore (engine)");
        assertThat(cycles(graph, layerOf)).hasSize(1);
        assertThat(cycles(graph, layerOf).get(0)).containsExactlyInAnyOrder("TimeoutNode", "TimerCore");
    }

    @Test
    void parser_ignoresCommentsAndStrings_readsImportsAndSamePackageUses() {
        Set<String> known = Set.of("Worker", "HandOff", "TimerCore", "Timer", "Clock");
        String source = """
                package io.tickwheel.internal;
                import io.tickwheel.Timer;
                /** see {@link TimerCore} */ final class Worker { // TimerCore
                  String s = "TimerCore"; HandOff h; io.tickwheel.internal.Clock c; }
                """;
        assertThat(references("Worker", "io.tickwheel.internal", source, known, Map.of(
                "Worker", "io.tickwheel.internal", "HandOff", "io.tickwheel.internal",
                "TimerCore", "io.tickwheel.internal", "Timer", "io.tickwheel", "Clock", "io.tickwheel.internal")))
                .containsExactlyInAnyOrder("Timer", "HandOff", "Clock");
    }

    private static Map<String, Integer> layerIndex() {
        Map<String, Integer> layerOf = new HashMap<>();
        for (int i = 0; i < LAYERS.size(); i++) {
            for (String name : LAYERS.get(i).classes()) {
                layerOf.put(name, i);
            }
        }
        return layerOf;
    }

    private static Map<String, Set<String>> readGraph(final Path root) throws IOException {
        Map<String, String> packageOf = new TreeMap<>();
        Map<String, String> text = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().contains("-info"))
                    .collect(Collectors.toList());
        }
        for (Path file : files) {
            String name = file.getFileName().toString().replace(".java", "");
            String pkg = root.relativize(file.getParent()).toString().replace(file.getFileSystem().getSeparator(), ".");
            packageOf.put(name, pkg);
            text.put(name, Files.readString(file, StandardCharsets.UTF_8));
        }
        Map<String, Set<String>> graph = new TreeMap<>();
        for (Map.Entry<String, String> entry : text.entrySet()) {
            String name = entry.getKey();
            graph.put(name, references(name, packageOf.get(name), entry.getValue(), packageOf.keySet(), packageOf));
        }
        return graph;
    }

    /** The tickwheel classes {@code source} uses, itself excluded. */
    static Set<String> references(final String self, final String pkg, final String source, final Set<String> known,
            final Map<String, String> packageOf) {
        String code = COMMENTS_AND_LITERALS.matcher(source).replaceAll(" ");
        Set<String> used = new TreeSet<>();
        Matcher qualified = QUALIFIED.matcher(code);
        while (qualified.find()) {
            used.add(qualified.group(1));
        }
        Matcher identifier = IDENTIFIER.matcher(QUALIFIED.matcher(code).replaceAll(" "));
        while (identifier.find()) {
            String token = identifier.group();
            if (known.contains(token) && pkg.equals(packageOf.get(token))) {
                used.add(token);
            }
        }
        used.retainAll(known);
        used.remove(self);
        return used;
    }

    static List<String> upwardEdges(final Map<String, Set<String>> graph, final Map<String, Integer> layerOf) {
        List<String> upward = new ArrayList<>();
        graph.forEach((from, targets) -> {
            for (String to : targets) {
                int a = layerOf.get(from);
                int b = layerOf.get(to);
                if (b > a) {
                    upward.add(from + " (" + LAYERS.get(a).name() + ") -> " + to + " (" + LAYERS.get(b).name() + ")");
                }
            }
        });
        return upward;
    }

    /** Strongly connected components of more than one class, the api layer counted as one class. */
    static List<List<String>> cycles(final Map<String, Set<String>> graph, final Map<String, Integer> layerOf) {
        Map<String, Set<String>> collapsed = new TreeMap<>();
        graph.forEach((from, targets) -> {
            String a = unit(from, layerOf);
            for (String to : targets) {
                String b = unit(to, layerOf);
                if (!a.equals(b)) {
                    collapsed.computeIfAbsent(a, k -> new TreeSet<>()).add(b);
                }
            }
            collapsed.computeIfAbsent(a, k -> new TreeSet<>());
        });
        return new Tarjan(collapsed).components().stream().filter(c -> c.size() > 1).collect(Collectors.toList());
    }

    private static String unit(final String name, final Map<String, Integer> layerOf) {
        return layerOf.get(name) == 0 ? "<api>" : name;
    }

    /** Tarjan's strongly connected components, recursive (the graph has a few dozen nodes). */
    private static final class Tarjan {
        private final Map<String, Set<String>> graph;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final List<String> stack = new ArrayList<>();
        private final List<List<String>> components = new ArrayList<>();

        Tarjan(final Map<String, Set<String>> graph) {
            this.graph = graph;
        }

        List<List<String>> components() {
            for (String node : graph.keySet()) {
                if (!index.containsKey(node)) {
                    visit(node);
                }
            }
            return components;
        }

        private void visit(final String node) {
            index.put(node, index.size());
            low.put(node, index.get(node));
            stack.add(node);
            for (String next : graph.getOrDefault(node, Set.of())) {
                if (!index.containsKey(next)) {
                    visit(next);
                    low.put(node, Math.min(low.get(node), low.get(next)));
                } else if (stack.contains(next)) {
                    low.put(node, Math.min(low.get(node), index.get(next)));
                }
            }
            if (low.get(node).equals(index.get(node))) {
                List<String> component = new ArrayList<>();
                String member;
                do {
                    member = stack.remove(stack.size() - 1);
                    component.add(member);
                } while (!member.equals(node));
                components.add(component);
            }
        }
    }
}
