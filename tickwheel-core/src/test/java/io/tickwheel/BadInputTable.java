package io.tickwheel;

import static io.tickwheel.BadInputChecks.FIRES;
import static io.tickwheel.BadInputChecks.FIRES_SOON;
import static io.tickwheel.BadInputChecks.NEVER_EARLY;
import static io.tickwheel.BadInputChecks.NO_LIMIT;
import static io.tickwheel.BadInputRow.accepts;
import static io.tickwheel.BadInputRow.call;
import static io.tickwheel.BadInputRow.hashedConstructors;
import static io.tickwheel.BadInputRow.rejects;
import static io.tickwheel.BadInputRow.rejectsInState;
import static io.tickwheel.BadInputRow.warned;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The rows of {@code docs/BAD-INPUT.md} for the timers, in the doc's order; the executor's and
 * {@code TimeoutFutures}' rows are in {@link BadInputExecutorTable}. {@link #all()} is the one
 * list every bad-input test walks.
 */
final class BadInputTable {

    static final String HB = "HashedWheelTimer.Builder#";
    static final String RB = "HierarchicalWheelTimer.Builder#";
    static final String TICK_LONG = "tickDuration(long,TimeUnit)";
    static final String TICK_DURATION = "tickDuration(Duration)";
    static final String HASHED_NEW = "HashedWheelTimer#newTimeout(TimerTask,long,TimeUnit)";
    static final String HIERARCHICAL_NEW = "HierarchicalWheelTimer#newTimeout(TimerTask,long,TimeUnit)";
    static final String TIMER_NEW = "Timer#newTimeout(TimerTask,long,TimeUnit)";
    static final String TIMER_NEW_DURATION = "Timer#newTimeout(TimerTask,Duration)";
    static final TimeUnit MS = TimeUnit.MILLISECONDS;
    static final TimeUnit NS = TimeUnit.NANOSECONDS;
    static final TimeUnit DAYS = TimeUnit.DAYS;
    /** A factory that breaks its contract by returning no thread. */
    static final ThreadFactory NULL_FACTORY = runnable -> null;
    /** A factory that breaks its contract by returning a thread it already started. */
    static final ThreadFactory STARTED_FACTORY = runnable -> {
        Thread thread = new Thread(() -> { }, "bad-input-already-started");
        thread.setDaemon(true);
        thread.start();
        return thread;
    };
    static final TimerTask TASK = timeout -> { };

    private static final Class<IllegalArgumentException> IAE = IllegalArgumentException.class;
    private static final Class<NullPointerException> NPE = NullPointerException.class;

    private BadInputTable() {
    }

    static List<BadInputRow> all() {
        return Stream.of(hashed(), hierarchical(), newTimeout(), BadInputExecutorTable.executor(),
                BadInputExecutorTable.executorBulk(), BadInputExecutorTable.futures(),
                BadInputStatsTable.stats()).flatMap(List::stream).toList();
    }

    private static List<BadInputRow> hashed() {
        return List.of(
                rejects("hashed.threadFactory.null", NPE, "threadFactory", hashedConstructors("threadFactory", null))
                        .and(call(HB + "threadFactory(ThreadFactory)", f -> f.hashedBuilder.threadFactory(null))),
                rejects("hashed.threadFactory.returnsNull", IllegalStateException.class, "threadFactory",
                        hashedConstructors("threadFactory", NULL_FACTORY))
                        .and(call(HB + "threadFactory(ThreadFactory)",
                                f -> HashedWheelTimer.builder().threadFactory(NULL_FACTORY).build())),
                rejects("hashed.threadFactory.returnsStarted", IllegalStateException.class, "threadFactory",
                        hashedConstructors("threadFactory", STARTED_FACTORY))
                        .and(call(HB + "threadFactory(ThreadFactory)",
                                f -> HashedWheelTimer.builder().threadFactory(STARTED_FACTORY).build())),
                rejects("hashed.unit.null", NPE, "unit", hashedConstructors("unit", null))
                        .and(call(HB + TICK_LONG, f -> f.hashedBuilder.tickDuration(1, null))),
                rejects("hashed.tickDuration.null", NPE, "tickDuration",
                        call(HB + TICK_DURATION, f -> f.hashedBuilder.tickDuration(null))),
                rejects("hashed.tickDuration.zero", IAE, "tickDuration", hashedConstructors("tickDuration", 0L))
                        .and(call(HB + TICK_LONG, f -> f.hashedBuilder.tickDuration(0, MS)),
                                call(HB + TICK_DURATION, f -> f.hashedBuilder.tickDuration(Duration.ZERO))),
                rejects("hashed.tickDuration.negative", IAE, "tickDuration", hashedConstructors("tickDuration", -1L))
                        .and(hashedConstructors("tickDuration", Long.MIN_VALUE))
                        .and(call(HB + TICK_LONG, f -> f.hashedBuilder.tickDuration(-1, MS)),
                                call(HB + TICK_DURATION, f -> f.hashedBuilder.tickDuration(Duration.ofNanos(-1))),
                                call(HB + TICK_DURATION,
                                        f -> f.hashedBuilder.tickDuration(Duration.ofSeconds(Long.MIN_VALUE)))),
                rejects("hashed.tickDuration.huge", IAE, "tickDuration",
                        hashedConstructors("tickDuration", Long.MAX_VALUE, "unit", NS))
                        .and(hashedConstructors("tickDuration", Long.MAX_VALUE, "unit", DAYS))
                        .and(call(HB + TICK_LONG, f -> HashedWheelTimer.builder().threadFactory(f.factory)
                                        .tickDuration(Long.MAX_VALUE, DAYS).build()),
                                call(HB + TICK_DURATION, f -> HashedWheelTimer.builder().threadFactory(f.factory)
                                        .tickDuration(Duration.ofSeconds(Long.MAX_VALUE)).build())),
                rejects("hashed.tickDuration.overflowsWheel", IAE, "tickDuration",
                        hashedConstructors("tickDuration", 1L, "unit", DAYS, "ticksPerWheel", 1 << 30))
                        .and(call(HB + "ticksPerWheel(int)", f -> HashedWheelTimer.builder().threadFactory(f.factory)
                                .tickDuration(1, DAYS).ticksPerWheel(1 << 30).build())),
                accepts("hashed.tickDuration.belowOneMilli", BadInputChecks.warnedAndFires("smaller than 1 ms"),
                        warned(hashedConstructors("tickDuration", 1L, "unit", NS)))
                        .and(warned(call(HB + TICK_DURATION, f -> HashedWheelTimer.builder().threadFactory(f.factory)
                                .tickDuration(Duration.ofNanos(999_999)).build()))),
                rejects("hashed.ticksPerWheel.zero", IAE, "ticksPerWheel", hashedConstructors("ticksPerWheel", 0))
                        .and(call(HB + "ticksPerWheel(int)", f -> f.hashedBuilder.ticksPerWheel(0))),
                rejects("hashed.ticksPerWheel.negative", IAE, "ticksPerWheel", hashedConstructors("ticksPerWheel", -1))
                        .and(hashedConstructors("ticksPerWheel", Integer.MIN_VALUE))
                        .and(call(HB + "ticksPerWheel(int)", f -> f.hashedBuilder.ticksPerWheel(-1))),
                rejects("hashed.ticksPerWheel.huge", IAE, "ticksPerWheel",
                        hashedConstructors("ticksPerWheel", (1 << 30) + 1))
                        .and(hashedConstructors("ticksPerWheel", Integer.MAX_VALUE))
                        .and(call(HB + "ticksPerWheel(int)", f -> f.hashedBuilder.ticksPerWheel(Integer.MAX_VALUE))),
                accepts("hashed.ticksPerWheel.notPowerOfTwo", FIRES, hashedConstructors("ticksPerWheel", 3))
                        .and(call(HB + "ticksPerWheel(int)", f -> HashedWheelTimer.builder().threadFactory(f.factory)
                                .ticksPerWheel(3).build())),
                accepts("hashed.maxPendingTimeouts.notPositive", NO_LIMIT, hashedConstructors("maxPendingTimeouts", 0L))
                        .and(hashedConstructors("maxPendingTimeouts", Long.MIN_VALUE))
                        .and(call(HB + "maxPendingTimeouts(long)", f -> HashedWheelTimer.builder()
                                .threadFactory(f.factory).maxPendingTimeouts(-1).build())),
                accepts("hashed.maxPendingTimeouts.huge", NO_LIMIT,
                        hashedConstructors("maxPendingTimeouts", Long.MAX_VALUE))
                        .and(call(HB + "maxPendingTimeouts(long)", f -> HashedWheelTimer.builder()
                                .threadFactory(f.factory).maxPendingTimeouts(Long.MAX_VALUE).build())),
                accepts("hashed.leakDetection.any", FIRES, hashedConstructors("leakDetection", false))
                        .and(call(HB + "leakDetection(boolean)", f -> HashedWheelTimer.builder()
                                .threadFactory(f.factory).leakDetection(false).build())),
                rejects("hashed.taskExecutor.null", NPE, "taskExecutor", hashedConstructors("taskExecutor", null))
                        .and(call(HB + "taskExecutor(Executor)", f -> f.hashedBuilder.taskExecutor(null))));
    }

    private static List<BadInputRow> hierarchical() {
        return List.of(
                rejects("hierarchical.threadFactory.null", NPE, "threadFactory",
                        call(RB + "threadFactory(ThreadFactory)", f -> f.hierarchicalBuilder.threadFactory(null))),
                rejects("hierarchical.threadFactory.returnsNull", IllegalStateException.class, "threadFactory",
                        call(RB + "threadFactory(ThreadFactory)",
                                f -> HierarchicalWheelTimer.builder().threadFactory(NULL_FACTORY).build())),
                rejects("hierarchical.threadFactory.returnsStarted", IllegalStateException.class, "threadFactory",
                        call(RB + "threadFactory(ThreadFactory)",
                                f -> HierarchicalWheelTimer.builder().threadFactory(STARTED_FACTORY).build())),
                rejects("hierarchical.unit.null", NPE, "unit",
                        call(RB + TICK_LONG, f -> f.hierarchicalBuilder.tickDuration(1, null))),
                rejects("hierarchical.tickDuration.null", NPE, "tickDuration",
                        call(RB + TICK_DURATION, f -> f.hierarchicalBuilder.tickDuration(null))),
                rejects("hierarchical.tickDuration.zero", IAE, "tickDuration",
                        call(RB + TICK_LONG, f -> f.hierarchicalBuilder.tickDuration(0, MS)),
                        call(RB + TICK_DURATION, f -> f.hierarchicalBuilder.tickDuration(Duration.ZERO))),
                rejects("hierarchical.tickDuration.negative", IAE, "tickDuration",
                        call(RB + TICK_LONG, f -> f.hierarchicalBuilder.tickDuration(-1, MS)),
                        call(RB + TICK_LONG, f -> f.hierarchicalBuilder.tickDuration(Long.MIN_VALUE, DAYS)),
                        call(RB + TICK_DURATION, f -> f.hierarchicalBuilder.tickDuration(Duration.ofNanos(-1))),
                        call(RB + TICK_DURATION,
                                f -> f.hierarchicalBuilder.tickDuration(Duration.ofSeconds(Long.MIN_VALUE)))),
                accepts("hierarchical.tickDuration.huge", BadInputChecks.HUGE_TICK,
                        call(RB + TICK_LONG, f -> hierarchical(f).tickDuration(Long.MAX_VALUE, NS).build()),
                        call(RB + TICK_LONG, f -> hierarchical(f).tickDuration(Long.MAX_VALUE, DAYS).build()),
                        call(RB + TICK_DURATION,
                                f -> hierarchical(f).tickDuration(Duration.ofSeconds(Long.MAX_VALUE)).build())),
                accepts("hierarchical.tickDuration.belowOneMilli", BadInputChecks.NO_WARNING_AND_FIRES,
                        warned(call(RB + TICK_LONG, f -> hierarchical(f).tickDuration(1, NS).build()),
                                call(RB + TICK_DURATION,
                                        f -> hierarchical(f).tickDuration(Duration.ofNanos(999_999)).build()))),
                rejects("hierarchical.wheelBits.zero", IAE, "wheelBits",
                        call(RB + "wheelBits(int)", f -> f.hierarchicalBuilder.wheelBits(0))),
                rejects("hierarchical.wheelBits.negative", IAE, "wheelBits",
                        call(RB + "wheelBits(int)", f -> f.hierarchicalBuilder.wheelBits(-1)),
                        call(RB + "wheelBits(int)", f -> f.hierarchicalBuilder.wheelBits(Integer.MIN_VALUE))),
                rejects("hierarchical.wheelBits.huge", IAE, "wheelBits",
                        call(RB + "wheelBits(int)", f -> f.hierarchicalBuilder.wheelBits(7)),
                        call(RB + "wheelBits(int)", f -> f.hierarchicalBuilder.wheelBits(Integer.MAX_VALUE))),
                rejects("hierarchical.slotsPerLevel.zeroOrOne", IAE, "slotsPerLevel",
                        call(RB + "slotsPerLevel(int)", f -> f.hierarchicalBuilder.slotsPerLevel(0)),
                        call(RB + "slotsPerLevel(int)", f -> f.hierarchicalBuilder.slotsPerLevel(1))),
                rejects("hierarchical.slotsPerLevel.negative", IAE, "slotsPerLevel",
                        call(RB + "slotsPerLevel(int)", f -> f.hierarchicalBuilder.slotsPerLevel(-64)),
                        call(RB + "slotsPerLevel(int)", f -> f.hierarchicalBuilder.slotsPerLevel(Integer.MIN_VALUE))),
                rejects("hierarchical.slotsPerLevel.huge", IAE, "slotsPerLevel",
                        call(RB + "slotsPerLevel(int)", f -> f.hierarchicalBuilder.slotsPerLevel(128)),
                        call(RB + "slotsPerLevel(int)", f -> f.hierarchicalBuilder.slotsPerLevel(Integer.MAX_VALUE))),
                rejects("hierarchical.slotsPerLevel.notPowerOfTwo", IAE, "slotsPerLevel",
                        call(RB + "slotsPerLevel(int)", f -> f.hierarchicalBuilder.slotsPerLevel(3)),
                        call(RB + "slotsPerLevel(int)", f -> f.hierarchicalBuilder.slotsPerLevel(48))),
                accepts("hierarchical.wheelBitsAndSlotsPerLevel.both", BadInputChecks.LAST_CALL_WINS,
                        call(RB + "slotsPerLevel(int)", f -> hierarchical(f).wheelBits(1).slotsPerLevel(4)),
                        call(RB + "wheelBits(int)", f -> hierarchical(f).slotsPerLevel(64).wheelBits(2))),
                accepts("hierarchical.maxPendingTimeouts.notPositive", NO_LIMIT,
                        call(RB + "maxPendingTimeouts(long)", f -> hierarchical(f).maxPendingTimeouts(0).build()),
                        call(RB + "maxPendingTimeouts(long)",
                                f -> hierarchical(f).maxPendingTimeouts(Long.MIN_VALUE).build())),
                accepts("hierarchical.maxPendingTimeouts.huge", NO_LIMIT, call(RB + "maxPendingTimeouts(long)",
                        f -> hierarchical(f).maxPendingTimeouts(Long.MAX_VALUE).build())),
                accepts("hierarchical.leakDetection.any", FIRES,
                        call(RB + "leakDetection(boolean)", f -> hierarchical(f).leakDetection(false).build())),
                rejects("hierarchical.taskExecutor.null", NPE, "taskExecutor",
                        call(RB + "taskExecutor(Executor)", f -> f.hierarchicalBuilder.taskExecutor(null))));
    }

    /** A fresh builder whose timers take their thread from the fixture's counting factory. */
    private static HierarchicalWheelTimer.Builder hierarchical(final BadInputFixture f) {
        return HierarchicalWheelTimer.builder().threadFactory(f.factory);
    }

    private static List<BadInputRow> newTimeout() {
        Duration nullDuration = null;
        return List.of(
                rejects("newTimeout.task.null", NPE, "task",
                        call(HASHED_NEW, f -> f.hashed.newTimeout(null, 1, MS)),
                        call(HIERARCHICAL_NEW, f -> f.hierarchical.newTimeout(null, 1, MS)),
                        call(HIERARCHICAL_NEW, f -> f.idle.newTimeout(null, 1, MS)),
                        call(TIMER_NEW, f -> Timers.shared().newTimeout(null, 1, MS)),
                        call(TIMER_NEW_DURATION, f -> f.hashed.newTimeout(null, Duration.ofMillis(1))),
                        call(TIMER_NEW_DURATION, f -> f.hierarchical.newTimeout(null, Duration.ofMillis(1))),
                        call(TIMER_NEW_DURATION, f -> Timers.shared().newTimeout(null, Duration.ofMillis(1)))),
                rejects("newTimeout.unit.null", NPE, "unit",
                        call(HASHED_NEW, f -> f.hashed.newTimeout(TASK, 1, null)),
                        call(HIERARCHICAL_NEW, f -> f.hierarchical.newTimeout(TASK, 1, null)),
                        call(HIERARCHICAL_NEW, f -> f.idle.newTimeout(TASK, 1, null)),
                        call(TIMER_NEW, f -> Timers.shared().newTimeout(TASK, 1, null))),
                rejects("newTimeout.delay.null", NPE, "delay",
                        call(TIMER_NEW_DURATION, f -> f.hashed.newTimeout(TASK, nullDuration)),
                        call(TIMER_NEW_DURATION, f -> f.idle.newTimeout(TASK, nullDuration)),
                        call(TIMER_NEW_DURATION, f -> Timers.shared().newTimeout(TASK, nullDuration))),
                accepts("newTimeout.delay.huge", NEVER_EARLY,
                        call(HASHED_NEW, f -> f.hashed.newTimeout(TASK, Long.MAX_VALUE, NS)),
                        call(HASHED_NEW, f -> f.hashed.newTimeout(TASK, Long.MAX_VALUE, DAYS)),
                        call(HIERARCHICAL_NEW, f -> f.hierarchical.newTimeout(TASK, Long.MAX_VALUE, NS)),
                        call(HIERARCHICAL_NEW, f -> f.hierarchical.newTimeout(TASK, Long.MAX_VALUE, DAYS)),
                        call(TIMER_NEW_DURATION, f -> f.hashed.newTimeout(TASK, Duration.ofSeconds(Long.MAX_VALUE))),
                        call(TIMER_NEW_DURATION,
                                f -> f.hierarchical.newTimeout(TASK, Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)))),
                accepts("newTimeout.delay.notPositive", FIRES_SOON,
                        call(HASHED_NEW, f -> f.hashed.newTimeout(TASK, 0, MS)),
                        call(HASHED_NEW, f -> f.hashed.newTimeout(TASK, Long.MIN_VALUE, DAYS)),
                        call(HIERARCHICAL_NEW, f -> f.hierarchical.newTimeout(TASK, -1, NS)),
                        call(HIERARCHICAL_NEW, f -> f.hierarchical.newTimeout(TASK, Long.MIN_VALUE, NS)),
                        call(TIMER_NEW_DURATION, f -> f.hashed.newTimeout(TASK, Duration.ofSeconds(Long.MIN_VALUE))),
                        call(TIMER_NEW_DURATION, f -> f.hierarchical.newTimeout(TASK, Duration.ofMillis(-1)))),
                rejectsInState("newTimeout.state.timerStopped", IllegalStateException.class, "stopped",
                        call(HIERARCHICAL_NEW, f -> f.stopped.newTimeout(TASK, 1, MS)),
                        call(TIMER_NEW_DURATION, f -> f.stopped.newTimeout(TASK, Duration.ofMillis(1)))),
                rejectsInState("newTimeout.state.atPendingLimit", RejectedExecutionException.class,
                        "pending timeouts",
                        call(HASHED_NEW, f -> f.limited.newTimeout(TASK, 1, MS)),
                        call(TIMER_NEW_DURATION, f -> f.limited.newTimeout(TASK, Duration.ofMillis(1)))));
    }
}
