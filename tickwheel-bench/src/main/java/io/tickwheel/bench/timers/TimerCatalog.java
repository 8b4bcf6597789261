package io.tickwheel.bench.timers;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Every timer the simulator knows, in the order the output lists them. To add a timer, write
 * one {@link BenchTimer} adapter and add one line here.
 *
 * <p>Threading: immutable.
 */
public final class TimerCatalog {

    /** The tickwheel timer the bars of BENCH.md are about. */
    public static final String TICKWHEEL_HIER = "tickwheel-hier-1ms";
    /** The peer every ratio is taken against. */
    public static final String NETTY_41_1MS = "netty41-1ms";
    /** The floor. */
    public static final String FLOOR = "floor";
    /** The empty JVM, the baseline of the idle workloads (not selectable). */
    public static final String IDLE_JVM = "idle-jvm";

    private static final long MS = 1_000_000L;

    private static final List<TimerSpec> ALL = List.of(
            new TimerSpec(TICKWHEEL_HIER, "tickwheel HierarchicalWheelTimer, 1 ms tick", MS,
                    () -> TickwheelTimer.hierarchical(Duration.ofMillis(1))),
            new TimerSpec("tickwheel-hashed-1ms", "tickwheel HashedWheelTimer, 1 ms x 512", MS,
                    () -> TickwheelTimer.hashed(1, 512)),
            new TimerSpec("tickwheel-hashed-100ms", "tickwheel HashedWheelTimer, 100 ms x 512",
                    100 * MS, () -> TickwheelTimer.hashed(100, 512)),
            new TimerSpec(NETTY_41_1MS, "Netty 4.1 HashedWheelTimer, 1 ms x 512", MS,
                    () -> NettyTimers.netty41(1, 512)),
            new TimerSpec("netty41-100ms", "Netty 4.1 HashedWheelTimer, 100 ms x 512 (defaults)",
                    100 * MS, () -> NettyTimers.netty41(100, 512)),
            new TimerSpec("netty42-1ms", "Netty 4.2 HashedWheelTimer, 1 ms x 512", MS,
                    () -> NettyTimers.netty42(1, 512)),
            new TimerSpec("netty42-100ms", "Netty 4.2 HashedWheelTimer, 100 ms x 512 (defaults)",
                    100 * MS, () -> NettyTimers.netty42(100, 512)),
            new TimerSpec("kafka", "Kafka SystemTimer + SystemTimerReaper, 1 ms x 20", MS,
                    KafkaTimer::new),
            new TimerSpec("stpe", "JDK ScheduledThreadPoolExecutor(1), removeOnCancel", 0,
                    StpeTimer::new),
            new TimerSpec("jdk-timer", "java.util.Timer", 0, JdkTimer::new),
            new TimerSpec(FLOOR, "floor: nanoTime + 1 allocation + MPSC offer", 0,
                    FloorTimer::new));

    private static final TimerSpec IDLE = new TimerSpec(IDLE_JVM, "empty JVM (no timer)", 0,
            NoTimer::new);

    private TimerCatalog() {
    }

    /**
     * Lists the selectable timers.
     *
     * @return every timer, in output order
     */
    public static List<TimerSpec> all() {
        return ALL;
    }

    /**
     * Finds a timer by id, the empty JVM included.
     *
     * @param id a timer id
     * @return the timer, if there is one by that id
     */
    public static Optional<TimerSpec> find(final String id) {
        if (IDLE_JVM.equals(id)) {
            return Optional.of(IDLE);
        }
        return ALL.stream().filter(s -> s.id().equals(id)).findFirst();
    }
}
