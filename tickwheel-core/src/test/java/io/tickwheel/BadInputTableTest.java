package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledFuture;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/BAD-INPUT.md} and {@link BadInputTable#all()} complete and in step: every
 * public constructor and method with parameters (of every public type in {@code io.tickwheel},
 * and of the {@link ScheduledFuture}s the executor returns) has a row, every row names a method
 * that exists, and the doc lists the same rows, in the same order, with the same outcomes.
 */
class BadInputTableTest {

    /** Public methods that are not an input boundary, with the reason. */
    private static final Map<String, String> EXEMPT = Map.of(
            "TimerTask#run(Timeout)", "a callback: the timer calls it with the task's own timeout",
            "TimerTask#cancelled(Timeout)", "a callback: the timer calls it with the task's own timeout");

    @Test
    void publicApi_everyConstructorAndMethodWithParameters_hasARow() throws IOException {
        Set<String> uncovered = new TreeSet<>(publicSignatures());
        uncovered.removeAll(rowSignatures());
        uncovered.removeAll(EXEMPT.keySet());
        assertThat(uncovered).as("public signatures with no row in BadInputTable (and docs/BAD-INPUT.md)").isEmpty();
    }

    @Test
    void rows_everySignatureAndExemption_isPublicApi() throws IOException {
        Set<String> signatures = publicSignatures();
        assertThat(signatures).as("the walk found the API").contains(
                "HashedWheelTimer(ThreadFactory,long,TimeUnit,int,boolean,long,Executor)",
                "HierarchicalWheelTimer.Builder#slotsPerLevel(int)", "Timer#newTimeout(TimerTask,Duration)",
                "WheelScheduledExecutorService#invokeAny(Collection,long,TimeUnit)",
                "TimeoutFutures#completeOnTimeout(CompletableFuture,Object,long,TimeUnit,Timer)",
                "ScheduledFuture#get(long,TimeUnit)");
        assertThat(signatures).containsAll(rowSignatures()).containsAll(EXEMPT.keySet());
    }

    @Test
    void doc_listsTheRowsInOrder_withTheirOutcomesAndMessages() throws IOException {
        Map<String, List<String>> doc = docRows();
        List<BadInputRow> rows = BadInputTable.all();
        assertThat(doc.keySet()).containsExactlyElementsOf(rows.stream().map(BadInputRow::key).toList());
        for (BadInputRow row : rows) {
            List<String> cells = doc.get(row.key());
            String outcome = cells.get(3);
            String message = cells.get(4);
            if (row.thrown() == null) {
                assertThat(outcome).as(row.key()).startsWith("accepted");
                assertThat(message).as(row.key()).isEqualTo("—");
            } else {
                assertThat(outcome).as(row.key()).startsWith("`" + row.thrown().getSimpleName() + "`");
                String how = row.isStateRow() ? "mentions" : "starts";
                assertThat(message).as(row.key()).isEqualTo(how + " `" + row.names() + "`");
            }
        }
    }

    /** Every row of the doc's tables, by key, as its six cells. */
    private static Map<String, List<String>> docRows() throws IOException {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(locate("../docs/BAD-INPUT.md", "docs/BAD-INPUT.md"))) {
            if (line.startsWith("| `")) {
                List<String> cells = Arrays.asList(line.substring(2, line.length() - 2).split(" \\| "));
                assertThat(cells).as("cells of %s", line).hasSize(6);
                String key = cells.get(0).replace("`", "");
                assertThat(rows.put(key, cells)).as("doc rows with key %s", key).isNull();
            }
        }
        return rows;
    }

    private static Set<String> rowSignatures() {
        return BadInputTable.all().stream().flatMap(row -> row.calls().stream())
                .map(BadInputRow.Call::signature).collect(Collectors.toCollection(TreeSet::new));
    }

    /** As {@link BadInputRow.Call} spells them: {@code Type(Params)} and {@code Type#name(Params)}. */
    private static Set<String> publicSignatures() throws IOException {
        Set<String> signatures = new TreeSet<>();
        for (Class<?> type : publicTypes()) {
            String name = type.getName().substring(type.getPackageName().length() + 1).replace('$', '.');
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                add(signatures, name, null, constructor);
            }
            for (Method method : type.getDeclaredMethods()) {
                add(signatures, name, method.getName(), method);
            }
        }
        for (Method method : ScheduledFuture.class.getMethods()) {
            add(signatures, "ScheduledFuture", method.getName(), method);
        }
        return signatures;
    }

    private static void add(final Set<String> signatures, final String type, final String method,
            final Executable executable) {
        if (Modifier.isPublic(executable.getModifiers()) && !executable.isSynthetic()
                && executable.getParameterCount() > 0 && !(executable instanceof Method m && m.isBridge())) {
            String params = Arrays.stream(executable.getParameterTypes()).map(Class::getSimpleName)
                    .collect(Collectors.joining(","));
            signatures.add(method == null ? type + "(" + params + ")" : type + "#" + method + "(" + params + ")");
        }
    }

    /** The public top-level types of io.tickwheel, from its sources, and their public nested types. */
    private static List<Class<?>> publicTypes() throws IOException {
        List<Class<?>> types = new ArrayList<>();
        Path sources = locate("src/main/java/io/tickwheel", "tickwheel-core/src/main/java/io/tickwheel");
        try (Stream<Path> files = Files.list(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String simpleName = file.getFileName().toString().replace(".java", "");
                if (!simpleName.equals("package-info")) {
                    addPublic(types, load("io.tickwheel." + simpleName));
                }
            }
        }
        return types;
    }

    private static void addPublic(final List<Class<?>> types, final Class<?> type) {
        if (Modifier.isPublic(type.getModifiers())) {
            types.add(type);
            for (Class<?> nested : type.getDeclaredClasses()) {
                addPublic(types, nested);
            }
        }
    }

    private static Class<?> load(final String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(name, e);
        }
    }

    /** The first of the paths that exists: from the module's directory (Maven's), or from the root's. */
    private static Path locate(final String fromModule, final String fromRoot) {
        Path path = Path.of(fromModule);
        return Files.exists(path) ? path : Path.of(fromRoot);
    }
}
