package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.tickwheel.TimerContractSupport.Probe;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@link HierarchicalWheelTimer} adds to the shared contract: its builder, delays that cross
 * level boundaries (cascades), a worker that parks without a deadline when idle, and
 * {@link Timers#shared()}.
 */
class HierarchicalWheelTimerTest {

    private static final String LOGGER = "io.tickwheel.HierarchicalWheelTimer";

    private final List<Timer> timers = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final Queue<String> order = new ConcurrentLinkedQueue<>();
    private final ThreadFactory threadFactory = runnable -> {
        Thread thread = new Thread(runnable, "hierarchical-test-" + threads.size());
        thread.setDaemon(true);
        threads.add(thread);
        return thread;
    };

    @AfterEach
    void stopTimers() {
        timers.forEach(Timer::stop);
    }

    private HierarchicalWheelTimer track(final HierarchicalWheelTimer timer) {
        timers.add(timer);
        return timer;
    }

    private HierarchicalWheelTimer.Builder builder() {
        return HierarchicalWheelTimer.builder().threadFactory(threadFactory);
    }

    private Probe probe(final String name) {
        return new Probe(name, order, timeout -> { });
    }

    @Test
    void builder_invalidArguments_throwNamingThem() {
        HierarchicalWheelTimer.Builder builder = HierarchicalWheelTimer.builder();
        List<ThrowingCallable> badTicks = List.of(
                () -> builder.tickDuration(Duration.ZERO),
                () -> builder.tickDuration(Duration.ofNanos(-1)),
                () -> builder.tickDuration(Duration.ofSeconds(Long.MIN_VALUE)),
                () -> builder.tickDuration(0, TimeUnit.MILLISECONDS),
                () -> builder.tickDuration(-5, TimeUnit.MILLISECONDS));
        badTicks.forEach(call -> assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tickDuration"));
        for (int wheelBits : new int[] {Integer.MIN_VALUE, -1, 0, 7, 64}) {
            assertThatThrownBy(() -> builder.wheelBits(wheelBits)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("wheelBits");
        }
        for (int slots : new int[] {Integer.MIN_VALUE, -64, 0, 1, 3, 48, 63, 65, 128}) {
            assertThatThrownBy(() -> builder.slotsPerLevel(slots)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("slotsPerLevel");
        }
        assertThatThrownBy(() -> builder.tickDuration(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("tickDuration");
        assertThatThrownBy(() -> builder.tickDuration(1, null)).isInstanceOf(NullPointerException.class)
                .hasMessage("unit");
        assertThatThrownBy(() -> builder.threadFactory(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("threadFactory");
        assertThatThrownBy(() -> builder.taskExecutor(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("taskExecutor");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void builder_everyValidLevelSize_buildsWorkingTimer(final int wheelBits) {
        List<HierarchicalWheelTimer> built = List.of(
                track(builder().wheelBits(wheelBits).build()),
                track(builder().slotsPerLevel(1 << wheelBits).tickDuration(1, TimeUnit.MILLISECONDS).build()));
        for (HierarchicalWheelTimer timer : built) {
            Probe probe = probe("bits" + wheelBits);
            Timeout far = timer.newTimeout(probe, 1, TimeUnit.HOURS);
            TimerContractSupport.schedule(timer, probe, 3);
            TimerContractSupport.awaitRuns(probe);
            TimerContractSupport.assertRanOnceOnTime(probe);
            assertThat(timer.stop()).containsExactly(far);
        }
    }

    static Stream<Arguments> levelBoundaries() {
        return Stream.of(
                arguments(64, new long[] {4097, 63, 4096, 0, 65, 4095, 64, 1}),
                arguments(8, new long[] {513, 7, 512, 65, 8, 511, 9, 63, 64}),
                arguments(2, new long[] {33, 1, 17, 2, 65, 3, 16, 4, 64, 5, 32, 7, 63, 8, 31, 9, 15}));
    }

    @ParameterizedTest(name = "{0} slots per level")
    @MethodSource("levelBoundaries")
    void newTimeout_delaysAcrossLevelBoundaries_runInDeadlineOrderNeverEarly(final int slotsPerLevel,
            final long[] delays) {
        HierarchicalWheelTimer timer = track(builder().slotsPerLevel(slotsPerLevel).build());
        List<Probe> probes = new ArrayList<>();
        for (long delay : delays) {
            Probe probe = probe("d" + delay);
            probes.add(probe);
            TimerContractSupport.schedule(timer, probe, delay);
        }
        TimerContractSupport.awaitRuns(probes.toArray(new Probe[0]));
        TimerContractSupport.assertDeadlineOrder(probes, order);
        probes.forEach(TimerContractSupport::assertRanOnceOnTime);
        assertThat(timer.pendingTimeouts()).isZero();
    }

    /** A worker that wakes long after several levels' worth of deadlines still runs them in order. */
    @ParameterizedTest(name = "{0} slots per level")
    @ValueSource(ints = {2, 64})
    void newTimeout_workerLateAcrossLevels_stillRunsInDeadlineOrder(final int slotsPerLevel) {
        AtomicLong now = new AtomicLong();
        HierarchicalWheelTimer timer = track(builder().slotsPerLevel(slotsPerLevel).build(now::get, true));
        long[] delays = {1030, 10, 4097, 1020, 600, 20, 64, 63, 4096};
        for (long delay : delays) {
            timer.newTimeout(probe("d" + delay), delay, TimeUnit.MILLISECONDS);
        }
        TimerContractSupport.awaitUntil(() -> threads.get(0).getState() == Thread.State.TIMED_WAITING);
        now.set(TimeUnit.SECONDS.toNanos(5));
        TimerContractSupport.awaitUntil(() -> order.size() == delays.length);
        assertThat(order).containsExactly("d10", "d20", "d63", "d64", "d600", "d1020", "d1030", "d4096", "d4097");
    }

    @Test
    void workerThread_idleAfterItsTimeoutsFire_parksWithoutDeadline() {
        HierarchicalWheelTimer timer = track(builder().build());
        List<Probe> probes = new ArrayList<>();
        for (long delay : new long[] {0, 1, 5, 70}) {
            Probe probe = probe("d" + delay);
            probes.add(probe);
            TimerContractSupport.schedule(timer, probe, delay);
        }
        Timeout cancelled = timer.newTimeout(probe("cancelled"), 30, TimeUnit.MILLISECONDS);
        assertThat(cancelled.cancel()).isTrue();
        TimerContractSupport.awaitRuns(probes.toArray(new Probe[0]));
        Thread worker = threads.get(0);
        // WAITING, not TIMED_WAITING: nothing is due, so the worker has no reason to wake at all.
        TimerContractSupport.awaitParkedWithoutDeadline(worker);
        Probe later = probe("later");
        TimerContractSupport.schedule(timer, later, 2);
        TimerContractSupport.awaitRuns(later);
        TimerContractSupport.awaitParkedWithoutDeadline(worker);
    }

    @Test
    void constructor_defaults_makeAWorkingTimerOnADaemonThread() {
        HierarchicalWheelTimer timer = track(new HierarchicalWheelTimer());
        Probe probe = probe("defaults");
        TimerContractSupport.schedule(timer, probe, 1);
        TimerContractSupport.awaitRuns(probe);
        TimerContractSupport.assertRanOnceOnTime(probe);
        assertThat(probe.ranOn.get().isDaemon()).isTrue();
    }

    @Test
    void leakDetection_timerDroppedWithoutStop_logsLeakAndWorkerExits() {
        try (LogCapture log = LogCapture.of(LOGGER)) {
            WeakReference<Timer> dropped = HashedWheelTimerLeakTest.startAndDrop(
                    factory -> HierarchicalWheelTimer.builder().threadFactory(factory).build(), threadFactory);
            Thread worker = threads.get(0);
            HashedWheelTimerLeakTest.awaitWithGc(
                    () -> !log.find(Level.SEVERE, HashedWheelTimerLeakTest.LEAK).isEmpty() && !worker.isAlive());
            assertThat(dropped.get()).isNull();
        }
    }

    @Test
    void shared_calledFromManyThreadsAtOnce_returnsOneInstance() throws Exception {
        int callers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            CyclicBarrier together = new CyclicBarrier(callers);
            List<Future<Timer>> results = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                results.add(pool.submit(() -> {
                    together.await(30, TimeUnit.SECONDS);
                    return Timers.shared();
                }));
            }
            Set<Timer> seen = ConcurrentHashMap.newKeySet();
            for (Future<Timer> result : results) {
                seen.add(result.get(30, TimeUnit.SECONDS));
            }
            assertThat(seen).containsExactly(Timers.shared());
            assertThat(Timers.shared()).isInstanceOf(HierarchicalWheelTimer.class);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shared_stopOrClose_throwsUnsupportedOperationAndKeepsWorking() {
        Timer shared = Timers.shared();
        Probe far = probe("sharedFar");
        Timeout pending = shared.newTimeout(far, 1, TimeUnit.HOURS);
        try {
            assertThatThrownBy(shared::stop).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(shared::close).isInstanceOf(UnsupportedOperationException.class);
            assertThat(pending.isCancelled()).isFalse();
            assertThat(far.cancelledCalls()).isZero();
            Probe probe = probe("sharedAfterStop");
            TimerContractSupport.schedule(shared, probe, 2);
            TimerContractSupport.awaitRuns(probe);
            TimerContractSupport.assertRanOnceOnTime(probe);
        } finally {
            pending.cancel();
        }
    }

    @Test
    void shared_schedulesAndCancels_runsTasksOnADaemonThreadNeverEarly() {
        Timer shared = Timers.shared();
        List<Probe> probes = new ArrayList<>();
        for (long delay : new long[] {7, 0, 3}) {
            Probe probe = probe("shared" + delay);
            probes.add(probe);
            TimerContractSupport.schedule(shared, probe, delay);
        }
        Probe cancelled = probe("sharedCancelled");
        assertThat(shared.newTimeout(cancelled, Duration.ofMillis(5)).cancel()).isTrue();
        TimerContractSupport.awaitRuns(probes.toArray(new Probe[0]));
        for (Probe probe : probes) {
            TimerContractSupport.assertRanOnceOnTime(probe);
            assertThat(probe.ranOn.get().isDaemon()).isTrue();
        }
        assertThat(cancelled.runs()).isZero();
        assertThat(cancelled.cancelledCalls()).isEqualTo(1);
    }
}
