package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.tickwheel.TimerContractSupport.Probe;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What Netty users rely on in {@link HashedWheelTimer} beyond the shared contract: the nine
 * constructors and the builder, Netty's defaults, argument validation, lazy start. The instance
 * count and leak detection are in {@link HashedWheelTimerLeakTest}.
 */
class HashedWheelTimerTest {

    private static final String LOGGER = "io.tickwheel.HashedWheelTimer";
    private static final TimeUnit MS = TimeUnit.MILLISECONDS;
    private static final TimeUnit NS = TimeUnit.NANOSECONDS;

    private final List<HashedWheelTimer> timers = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final ThreadFactory threadFactory = runnable -> {
        Thread thread = new Thread(runnable, "hashed-test-" + threads.size());
        thread.setDaemon(true);
        threads.add(thread);
        return thread;
    };

    @AfterEach
    void stopTimers() {
        timers.forEach(HashedWheelTimer::stop);
    }

    private HashedWheelTimer track(final HashedWheelTimer timer) {
        timers.add(timer);
        return timer;
    }

    /** Makes a timer from the test's thread factory and a task executor. */
    @FunctionalInterface
    interface Maker {
        HashedWheelTimer make(ThreadFactory threadFactory, Executor taskExecutor);
    }

    static Stream<Arguments> constructors() {
        return Stream.of(
                arguments("()", (Maker) (factory, executor) -> new HashedWheelTimer()),
                arguments("(tick, unit)", (Maker) (factory, executor) -> new HashedWheelTimer(10, MS)),
                arguments("(tick, unit, ticks)", (Maker) (factory, executor) -> new HashedWheelTimer(10, MS, 64)),
                arguments("(threadFactory)", (Maker) (factory, executor) -> new HashedWheelTimer(factory)),
                arguments("(threadFactory, tick, unit)",
                        (Maker) (factory, executor) -> new HashedWheelTimer(factory, 10, MS)),
                arguments("(threadFactory, tick, unit, ticks)",
                        (Maker) (factory, executor) -> new HashedWheelTimer(factory, 10, MS, 64)),
                arguments("(threadFactory, tick, unit, ticks, leakDetection)",
                        (Maker) (factory, executor) -> new HashedWheelTimer(factory, 10, MS, 64, false)),
                arguments("(threadFactory, tick, unit, ticks, leakDetection, maxPending)",
                        (Maker) (factory, executor) -> new HashedWheelTimer(factory, 10, MS, 64, true, 5)),
                arguments("(threadFactory, tick, unit, ticks, leakDetection, maxPending, taskExecutor)",
                        (Maker) (factory, executor) -> new HashedWheelTimer(factory, 10, MS, 64, true, 5, executor)),
                arguments("builder()", (Maker) (factory, executor) -> HashedWheelTimer.builder().build()),
                arguments("builder(threadFactory, tick, ticks, leakDetection, maxPending, taskExecutor)",
                        (Maker) (factory, executor) -> HashedWheelTimer.builder().threadFactory(factory)
                                .tickDuration(Duration.ofMillis(10)).ticksPerWheel(64).leakDetection(false)
                                .maxPendingTimeouts(5).taskExecutor(executor).build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("constructors")
    void constructor_each_makesTimerThatSchedulesFiresAndStops(final String signature, final Maker maker)
            throws InterruptedException {
        AtomicInteger executed = new AtomicInteger();
        Executor countingExecutor = command -> {
            executed.incrementAndGet();
            command.run();
        };
        HashedWheelTimer timer = track(maker.make(threadFactory, countingExecutor));
        Probe probe = new Probe("fires", new ConcurrentLinkedQueue<>(), timeout -> { });
        Timeout timeout = TimerContractSupport.schedule(timer, probe, 1);
        Timeout far = timer.newTimeout(probe, 1, TimeUnit.HOURS);
        TimerContractSupport.awaitRuns(probe);
        TimerContractSupport.assertRanOnceOnTime(probe);
        assertThat(timeout.isExpired()).isTrue();
        assertThat(timer.pendingTimeouts()).isEqualTo(1);
        assertThat(timer.stop()).containsExactly(far);
        assertThat(timer.pendingTimeouts()).isZero();
        if (signature.contains("threadFactory")) {
            assertThat(threads).hasSize(1);
            assertThat(probe.ranOn.get()).isSameAs(threads.get(0));
            // stop() returns once the worker's final drain is done (Lifecycle.awaitWorkerExit), which can be
            // a moment before the thread itself has ended: wait for that, bounded.
            threads.get(0).join(10_000);
            assertThat(threads.get(0).isAlive()).isFalse();
        }
        assertThat(executed.get()).isEqualTo(signature.contains("taskExecutor") ? 1 : 0);
    }

    static Stream<Arguments> defaultTickConstructors() {
        return constructors().filter(arguments -> {
            String signature = (String) arguments.get()[0];
            return signature.equals("()") || signature.equals("(threadFactory)") || signature.equals("builder()");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("defaultTickConstructors")
    void constructor_defaultTick_is100MillisSoNoTimeoutFiresBeforeTheFirstTick(final String signature,
            final Maker maker) {
        long created = System.nanoTime();
        HashedWheelTimer timer = track(maker.make(threadFactory, Runnable::run));
        Probe probe = new Probe("firstTick", new ConcurrentLinkedQueue<>(), timeout -> { });
        timer.newTimeout(probe, 1, NS);
        TimerContractSupport.awaitRuns(probe);
        assertThat(probe.ranAtNanos - created).isGreaterThanOrEqualTo(MS.toNanos(100));
    }

    /**
     * The overflow guard rejects {@code tickNanos >= Long.MAX_VALUE / wheelLength}, so the largest
     * accepted tick tells the wheel length exactly: this is how the rounding is observed.
     */
    @ParameterizedTest(name = "{0} ticks -> {1} buckets")
    @CsvSource({"1, 1", "2, 2", "3, 4", "5, 8", "511, 512", "512, 512", "513, 1024", "1000, 1024", "65537, 131072"})
    void constructor_ticksPerWheel_roundedUpToPowerOfTwo(final int ticksPerWheel, final int wheelLength) {
        long limit = Long.MAX_VALUE / wheelLength;
        assertThatThrownBy(() -> track(new HashedWheelTimer(threadFactory, limit, NS, ticksPerWheel)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("tickDuration");
        assertThatThrownBy(() -> track(HashedWheelTimer.builder().tickDuration(limit, NS).ticksPerWheel(ticksPerWheel)
                .build())).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("tickDuration");
        track(new HashedWheelTimer(threadFactory, limit - 1, NS, ticksPerWheel)).stop();
        track(HashedWheelTimer.builder().tickDuration(limit - 1, NS).ticksPerWheel(ticksPerWheel).build()).stop();
    }

    @Test
    void constructor_ticksPerWheelUpTo2Pow30_passesRangeCheckAndMeetsOverflowGuard() {
        // 2^30 itself (and 2^29 + 1, rounded to it) pass the range check and meet the overflow guard.
        for (int ticksPerWheel : new int[] {(1 << 29) + 1, 1 << 30}) {
            long limit = Long.MAX_VALUE >> 30;
            assertThatThrownBy(() -> track(new HashedWheelTimer(threadFactory, limit, NS, ticksPerWheel)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("tickDuration");
        }
    }

    @Test
    void constructor_defaultTicksPerWheel_is512() {
        long limit = Long.MAX_VALUE / 512;
        List<ThrowingCallable> atLimit = List.of(
                () -> track(new HashedWheelTimer(limit, NS)),
                () -> track(new HashedWheelTimer(threadFactory, limit, NS)),
                () -> track(HashedWheelTimer.builder().tickDuration(limit, NS).build()));
        atLimit.forEach(call -> assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class));
        track(new HashedWheelTimer(limit - 1, NS)).stop();
        track(new HashedWheelTimer(threadFactory, limit - 1, NS)).stop();
        track(HashedWheelTimer.builder().tickDuration(Duration.ofNanos(limit - 1)).build()).stop();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE, (1 << 30) + 1, Integer.MAX_VALUE})
    void constructor_ticksPerWheelOutside1To2Pow30_throwsIllegalArgumentNamingIt(final int ticksPerWheel) {
        List<ThrowingCallable> calls = List.of(
                () -> track(new HashedWheelTimer(1, MS, ticksPerWheel)),
                () -> track(new HashedWheelTimer(threadFactory, 1, MS, ticksPerWheel)),
                () -> track(new HashedWheelTimer(threadFactory, 1, MS, ticksPerWheel, true)),
                () -> track(new HashedWheelTimer(threadFactory, 1, MS, ticksPerWheel, true, -1)),
                () -> track(new HashedWheelTimer(threadFactory, 1, MS, ticksPerWheel, true, -1, Runnable::run)),
                () -> HashedWheelTimer.builder().ticksPerWheel(ticksPerWheel));
        calls.forEach(call -> assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("ticksPerWheel"));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void constructor_tickDurationNotPositive_throwsIllegalArgumentNamingIt(final long tickDuration) {
        List<ThrowingCallable> calls = List.of(
                () -> track(new HashedWheelTimer(tickDuration, MS)),
                () -> track(new HashedWheelTimer(tickDuration, MS, 8)),
                () -> track(new HashedWheelTimer(threadFactory, tickDuration, MS)),
                () -> track(new HashedWheelTimer(threadFactory, tickDuration, MS, 8)),
                () -> track(new HashedWheelTimer(threadFactory, tickDuration, MS, 8, true)),
                () -> track(new HashedWheelTimer(threadFactory, tickDuration, MS, 8, true, -1)),
                () -> track(new HashedWheelTimer(threadFactory, tickDuration, MS, 8, true, -1, Runnable::run)),
                () -> HashedWheelTimer.builder().tickDuration(tickDuration, MS),
                () -> HashedWheelTimer.builder().tickDuration(Duration.ofNanos(tickDuration)));
        calls.forEach(call -> assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tickDuration"));
    }

    @Test
    void constructor_tickTimesWheelLengthOverflows_throwsIllegalArgument() {
        List<ThrowingCallable> calls = List.of(
                () -> track(new HashedWheelTimer(threadFactory, Long.MAX_VALUE, NS, 512)),
                () -> track(new HashedWheelTimer(threadFactory, Long.MAX_VALUE, TimeUnit.DAYS, 1)),
                () -> track(new HashedWheelTimer(threadFactory, 1, TimeUnit.DAYS, 1 << 30)),
                () -> track(new HashedWheelTimer(threadFactory, 1L << 54, NS, 512)),
                () -> track(HashedWheelTimer.builder().tickDuration(Duration.ofDays(365L * 1000)).ticksPerWheel(1 << 20)
                        .build()),
                () -> track(HashedWheelTimer.builder().tickDuration(Duration.ofSeconds(Long.MAX_VALUE)).build()));
        calls.forEach(call -> assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tickDuration"));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 1_000, 999_999})
    void constructor_tickBelowOneMilli_raisedToOneMilliWithWarning(final long tickNanos) {
        try (LogCapture log = LogCapture.of(LOGGER)) {
            track(new HashedWheelTimer(threadFactory, tickNanos, NS, 8));
            track(HashedWheelTimer.builder().tickDuration(Duration.ofNanos(tickNanos)).build());
            assertThat(log.find(Level.WARNING, "1 ms")).hasSize(2)
                    .allSatisfy(logRecord -> assertThat(LogCapture.message(logRecord))
                            .contains(MessageFormat.format("{0}", tickNanos)));
            track(new HashedWheelTimer(threadFactory, 1, MS, 8));
            assertThat(log.lines(Level.WARNING)).hasSize(2);
        }
    }

    @Test
    void newTimeout_tickRaisedToOneMilli_firesOnMilliTicksNotNanoTicks() {
        // Every reading advances this clock by 10 us, so the worker sees time pass at its own pace.
        AtomicLong now = new AtomicLong();
        HashedWheelTimer timer = track(new HashedWheelTimer(() -> now.getAndAdd(10_000), threadFactory, 1, NS, 8,
                true, -1, null));
        AtomicLong firedAt = new AtomicLong(-1);
        timer.newTimeout(timeout -> firedAt.set(now.get()), 1, NS);
        TimerContractSupport.awaitUntil(() -> firedAt.get() >= 0);
        // With a 1 ns tick it would fire at the worker's first reading after scheduling (tens of us).
        assertThat(firedAt.get()).isGreaterThanOrEqualTo(MS.toNanos(1));
    }

    @Test
    void constructor_nullArguments_throwNullPointerNamingThem() {
        ThreadFactory none = null;
        TimeUnit noUnit = null;
        Executor noExecutor = null;
        assertNpe("threadFactory", () -> new HashedWheelTimer(none));
        assertNpe("threadFactory", () -> new HashedWheelTimer(none, 1, MS));
        assertNpe("threadFactory", () -> new HashedWheelTimer(none, 1, MS, 8));
        assertNpe("threadFactory", () -> new HashedWheelTimer(none, 1, MS, 8, true));
        assertNpe("threadFactory", () -> new HashedWheelTimer(none, 1, MS, 8, true, -1));
        assertNpe("threadFactory", () -> new HashedWheelTimer(none, 1, MS, 8, true, -1, Runnable::run));
        assertNpe("threadFactory", () -> HashedWheelTimer.builder().threadFactory(none));
        assertNpe("unit", () -> new HashedWheelTimer(1, noUnit));
        assertNpe("unit", () -> new HashedWheelTimer(1, noUnit, 8));
        assertNpe("unit", () -> new HashedWheelTimer(threadFactory, 1, noUnit));
        assertNpe("unit", () -> new HashedWheelTimer(threadFactory, 1, noUnit, 8));
        assertNpe("unit", () -> new HashedWheelTimer(threadFactory, 1, noUnit, 8, true));
        assertNpe("unit", () -> new HashedWheelTimer(threadFactory, 1, noUnit, 8, true, -1));
        assertNpe("unit", () -> new HashedWheelTimer(threadFactory, 1, noUnit, 8, true, -1, Runnable::run));
        assertNpe("unit", () -> HashedWheelTimer.builder().tickDuration(1, noUnit));
        assertNpe("tickDuration", () -> HashedWheelTimer.builder().tickDuration(null));
        assertNpe("taskExecutor", () -> new HashedWheelTimer(threadFactory, 1, MS, 8, true, -1, noExecutor));
        assertNpe("taskExecutor", () -> HashedWheelTimer.builder().taskExecutor(noExecutor));
    }

    private void assertNpe(final String argument, final ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(NullPointerException.class).hasMessage(argument);
    }

    @Test
    void newTimeout_first_startsTheWorkerThreadMadeAtConstruction() {
        HashedWheelTimer timer = track(new HashedWheelTimer(threadFactory, 1, MS, 8));
        HashedWheelTimer built = track(HashedWheelTimer.builder().threadFactory(threadFactory).build());
        assertThat(threads).hasSize(2).allSatisfy(thread -> assertThat(thread.getState()).isEqualTo(Thread.State.NEW));
        Probe probe = new Probe("lazy", new ConcurrentLinkedQueue<>(), timeout -> { });
        timer.newTimeout(probe, 1, MS);
        assertThat(threads.get(0).isAlive()).isTrue();
        assertThat(threads.get(1).getState()).isEqualTo(Thread.State.NEW);
        built.start();
        assertThat(threads.get(1).isAlive()).isTrue();
        TimerContractSupport.awaitRuns(probe);
        assertThat(probe.ranOn.get()).isSameAs(threads.get(0));
        assertThat(threads).hasSize(2);
    }

    /**
     * SPEC: without an executor, tasks run in deadline-bucket order. A worker that wakes late by more
     * than one lap of the wheel (a GC pause, a stalled VM, a loaded machine with a small wheel) must
     * still run what is due in deadline order, as Netty's tick-by-tick catch-up does.
     */
    @ParameterizedTest(name = "{0} buckets")
    @ValueSource(ints = {2, 512})
    void newTimeout_workerLateByMoreThanALap_stillRunsInDeadlineOrder(final int ticksPerWheel) {
        AtomicLong now = new AtomicLong();
        HashedWheelTimer timer = track(new HashedWheelTimer(now::get, threadFactory, 1, MS, ticksPerWheel, true, -1,
                null));
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        long[] delays = {1030, 10, 1020, 600, 20};
        for (long delay : delays) {
            timer.newTimeout(new Probe("d" + delay, order, timeout -> { }), delay, MS);
        }
        TimerContractSupport.awaitUntil(() -> threads.get(0).getState() == Thread.State.TIMED_WAITING);
        now.set(MS.toNanos(2000));
        TimerContractSupport.awaitUntil(() -> order.size() == delays.length);
        assertThat(order).containsExactly("d10", "d20", "d600", "d1020", "d1030");
    }
}
