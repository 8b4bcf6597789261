package io.tickwheel.bench;

import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import io.tickwheel.bench.workloads.Sizes;
import io.tickwheel.bench.workloads.Workload;
import io.tickwheel.bench.workloads.WorkloadCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The simulator's command line.
 *
 * <p>Threading: not thread-safe; built once by the main thread.
 */
final class Options {

    /**
     * The quick run's timers: the bar's subject, tickwheel's hashed wheel, the peer every ratio
     * is taken against, and the floor. Few timers, so each cell can run at full size.
     */
    static final List<String> QUICK_TIMERS = List.of(TimerCatalog.TICKWHEEL_HIER,
            "tickwheel-hashed-1ms", TimerCatalog.NETTY_41_1MS, TimerCatalog.FLOOR);

    /** The quick run's workloads: W7 (W1 and W2 from two threads) needs --full. */
    static final List<String> QUICK_WORKLOADS = List.of("W1", "W2", "W3", "W4", "W5", "W6");

    static final String USAGE = String.join("\n",
            "usage: java -jar tickwheel-bench.jar [--quick | --full] [options]",
            "  --quick               W1-W6 at BENCH.md's sizes (W4/W5 shortened) against "
                    + String.join(", ", QUICK_TIMERS) + ", < 2 min (default)",
            "  --full                every timer, W1-W7 at BENCH.md's sizes plus every scenario,"
                    + " about 30 min",
            "  --timers a,b,c        timers to run (default: quick's four, or all with --full);"
                    + " ids: " + timerIds(),
            "  --workloads W1,W3     workloads to run (default: W1-W6 quick, W1-W7 full; 'none'"
                    + " for none)",
            "  --scenarios [a,b]     scenario presets to run (alone: all): rpc, heartbeat,"
                    + " lease, order-close",
            "  --scale f             multiply every count by f (default 1)",
            "  --out dir             output directory (default bench-out)",
            "  --jvm-flags \"...\"     flags of each child JVM (default "
                    + "-Xms4g -Xmx4g -XX:+UseParallelGC)",
            "  --help                this text");

    private static final Pattern COMMA = Pattern.compile(",");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    boolean full;
    double scale = 1.0;
    Path out = Path.of("bench-out");
    List<String> jvmFlags = defaultFlags();
    List<TimerSpec> timers;
    List<Workload> workloads;
    List<Workload> scenarios = List.of();
    boolean scenariosChosen;
    boolean help;

    static Options parse(final String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--quick" -> o.full = false;
                case "--full" -> o.full = true;
                case "--help", "-h" -> o.help = true;
                case "--timers" -> o.timers = timers(value(args, ++i, arg));
                case "--workloads" -> o.workloads = workloads(value(args, ++i, arg), false);
                case "--scenarios" -> {
                    o.scenariosChosen = true;
                    boolean listGiven = i + 1 < args.length && !args[i + 1].startsWith("--");
                    o.scenarios = listGiven ? workloads(args[++i], true)
                            : WorkloadCatalog.scenarios();
                }
                case "--scale" -> o.scale = scale(value(args, ++i, arg));
                case "--out" -> o.out = Path.of(value(args, ++i, arg));
                case "--jvm-flags" -> o.jvmFlags =
                        SPACES.splitAsStream(value(args, ++i, arg).trim()).toList();
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if (o.full && !o.scenariosChosen) {
            o.scenarios = WorkloadCatalog.scenarios();
        }
        if (o.timers == null) {
            o.timers = o.full ? TimerCatalog.all() : timers(String.join(",", QUICK_TIMERS));
        }
        if (o.workloads == null) {
            o.workloads = o.full ? WorkloadCatalog.workloads()
                    : workloads(String.join(",", QUICK_WORKLOADS), false);
        }
        return o;
    }

    /**
     * BENCH.md's flags; on JDK 24 and later also allows sun.misc.Unsafe's memory access, which
     * Netty uses, so the children do not print its deprecation warning.
     */
    static List<String> defaultFlags() {
        if (Runtime.version().feature() >= 24) {
            return List.of("-Xms4g", "-Xmx4g", "-XX:+UseParallelGC",
                    "--sun-misc-unsafe-memory-access=allow");
        }
        return List.of("-Xms4g", "-Xmx4g", "-XX:+UseParallelGC");
    }

    Sizes sizes() {
        return new Sizes(full, scale);
    }

    String mode() {
        return full ? "full" : "quick";
    }

    private static String value(final String[] args, final int i, final String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static double scale(final String text) {
        double f = Double.parseDouble(text);
        if (!(f > 0) || Double.isInfinite(f)) {
            throw new IllegalArgumentException("--scale must be a positive number: " + text);
        }
        return f;
    }

    private static List<TimerSpec> timers(final String list) {
        List<TimerSpec> specs = new ArrayList<>();
        for (String id : COMMA.splitAsStream(list).toList()) {
            String name = id.trim().toLowerCase(Locale.ROOT);
            if (!name.isEmpty()) {
                specs.add(TimerCatalog.all().stream().filter(s -> s.id().equals(name)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException(
                                "unknown timer " + name + "; known: " + timerIds())));
            }
        }
        return List.copyOf(specs);
    }

    private static List<Workload> workloads(final String list, final boolean scenario) {
        List<Workload> chosen = new ArrayList<>();
        if ("none".equalsIgnoreCase(list.trim())) {
            return List.of();
        }
        List<Workload> known = scenario ? WorkloadCatalog.scenarios() : WorkloadCatalog.workloads();
        for (String id : COMMA.splitAsStream(list).toList()) {
            String name = id.trim();
            if (!name.isEmpty()) {
                chosen.add(known.stream().filter(w -> w.id().equalsIgnoreCase(name)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("unknown "
                                + (scenario ? "scenario " : "workload ") + name)));
            }
        }
        return List.copyOf(chosen);
    }

    private static String timerIds() {
        return String.join(", ", TimerCatalog.all().stream().map(TimerSpec::id).toList());
    }
}
