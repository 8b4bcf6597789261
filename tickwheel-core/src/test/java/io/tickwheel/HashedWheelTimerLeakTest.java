package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tickwheel.TimerContractSupport.Probe;
import io.tickwheel.internal.LeakGuardAccess;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Netty's guard rails against misused timers: one ERROR when more than 64 are alive, and a leak
 * report (through a {@link java.lang.ref.Cleaner}) for a timer dropped without {@code stop()}.
 * Collection is awaited with {@code System.gc()} and a generous bound.
 */
class HashedWheelTimerLeakTest {

    static final String LOGGER = "io.tickwheel.HashedWheelTimer";
    static final String TOO_MANY = "share one timer per JVM";
    static final String LEAK = "LEAK";

    private final List<Timer> timers = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final ThreadFactory threadFactory = runnable -> {
        Thread thread = new Thread(runnable, "leak-test-" + threads.size());
        thread.setDaemon(true);
        threads.add(thread);
        return thread;
    };

    @AfterEach
    void stopTimers() {
        timers.forEach(Timer::stop);
    }

    @Test
    void constructor_moreThan64LiveTimers_logsOneErrorAndStopReleasesTheCount() {
        int before = LeakGuardAccess.live();
        assertThat(before).as("timers left alive by other tests").isLessThan(LeakGuardAccess.INSTANCE_LIMIT);
        try (LogCapture log = LogCapture.of(LOGGER)) {
            LeakGuardAccess.resetWarning();
            while (LeakGuardAccess.live() < LeakGuardAccess.INSTANCE_LIMIT) {
                timers.add(new HashedWheelTimer(threadFactory, 1, TimeUnit.MILLISECONDS, 8, false));
            }
            assertThat(log.find(Level.SEVERE, TOO_MANY)).isEmpty();
            for (int i = 0; i < 6; i++) {
                timers.add(new HashedWheelTimer(threadFactory, 1, TimeUnit.MILLISECONDS, 8, false));
            }
            assertThat(log.find(Level.SEVERE, TOO_MANY)).hasSize(1);
            assertThat(LeakGuardAccess.live()).isEqualTo(LeakGuardAccess.INSTANCE_LIMIT + 6);
            timers.forEach(Timer::stop);
            assertThat(LeakGuardAccess.live()).isEqualTo(before);
        } finally {
            LeakGuardAccess.resetWarning();
        }
    }

    @Test
    void instanceWarningThreshold_property_movesTheThreshold_andZeroTurnsItOff() {
        String property = "io.tickwheel.instanceWarningThreshold";
        int before = LeakGuardAccess.live();
        try (LogCapture log = LogCapture.of(LOGGER)) {
            LeakGuardAccess.resetWarning();
            System.setProperty(property, Integer.toString(before + 2));
            timers.add(new HashedWheelTimer(threadFactory, 1, TimeUnit.MILLISECONDS, 8, false));
            timers.add(new HashedWheelTimer(threadFactory, 1, TimeUnit.MILLISECONDS, 8, false));
            assertThat(log.find(Level.SEVERE, TOO_MANY)).isEmpty();
            timers.add(new HashedWheelTimer(threadFactory, 1, TimeUnit.MILLISECONDS, 8, false));
            assertThat(log.find(Level.SEVERE, TOO_MANY)).singleElement()
                    .satisfies(r -> assertThat(LogCapture.message(r)).contains("More than " + (before + 2)));
            timers.forEach(Timer::stop);

            LeakGuardAccess.resetWarning();
            System.setProperty(property, "0");
            while (LeakGuardAccess.live() < LeakGuardAccess.INSTANCE_LIMIT + 3) {
                timers.add(new HashedWheelTimer(threadFactory, 1, TimeUnit.MILLISECONDS, 8, false));
            }
            assertThat(log.find(Level.SEVERE, TOO_MANY)).as("0 turns the warning off").hasSize(1);
        } finally {
            System.clearProperty(property);
            LeakGuardAccess.resetWarning();
        }
    }

    @Test
    void leakDetection_timerDroppedWithoutStop_logsLeakAndWorkerExits() {
        try (LogCapture log = LogCapture.of(LOGGER)) {
            WeakReference<Timer> dropped = startAndDrop(factory -> new HashedWheelTimer(factory, 1,
                    TimeUnit.MILLISECONDS, 8, true), threadFactory);
            Thread worker = threads.get(0);
            awaitWithGc(() -> !log.find(Level.SEVERE, LEAK).isEmpty() && !worker.isAlive());
            assertThat(dropped.get()).isNull();
            assertThat(log.find(Level.SEVERE, LEAK)).singleElement()
                    .satisfies(logRecord -> assertThat(LogCapture.message(logRecord)).contains("stop()"));
        }
    }

    @Test
    void leakDetection_off_droppedTimerStillStopsItsWorkerWithoutReport() {
        try (LogCapture log = LogCapture.of(LOGGER)) {
            startAndDrop(factory -> new HashedWheelTimer(factory, 1, TimeUnit.MILLISECONDS, 8, false), threadFactory);
            Thread worker = threads.get(0);
            awaitWithGc(() -> !worker.isAlive());
            assertThat(log.find(Level.SEVERE, LEAK)).isEmpty();
        }
    }

    @Test
    void leakDetection_droppedTimerWithPendingTimeout_isKeptAliveUntilItRuns() {
        try (LogCapture log = LogCapture.of(LOGGER)) {
            AtomicReference<Timer> keptByTask = new AtomicReference<>();
            AtomicReference<Boolean> leakReportedBeforeRun = new AtomicReference<>();
            scheduleAndDrop(timeout -> {
                leakReportedBeforeRun.set(!log.find(Level.SEVERE, LEAK).isEmpty());
                keptByTask.set(timeout.timer());
            });
            awaitWithGc(() -> keptByTask.get() != null);
            timers.add(keptByTask.get());
            assertThat(leakReportedBeforeRun.get()).isFalse();
            assertThat(threads.get(0).isAlive()).isTrue();
        }
    }

    private void scheduleAndDrop(final TimerTask task) {
        HashedWheelTimer timer = new HashedWheelTimer(threadFactory, 1, TimeUnit.MILLISECONDS, 8, true);
        timer.newTimeout(task, 300, TimeUnit.MILLISECONDS);
    }

    /** Makes a timer, proves its worker runs a task, and forgets it: only a weak reference is returned. */
    static WeakReference<Timer> startAndDrop(final Function<ThreadFactory, Timer> maker,
            final ThreadFactory threadFactory) {
        Timer timer = maker.apply(threadFactory);
        Probe probe = new Probe("beforeDrop", new ConcurrentLinkedQueue<>(), timeout -> { });
        timer.newTimeout(probe, 0, TimeUnit.MILLISECONDS);
        TimerContractSupport.awaitRuns(probe);
        return new WeakReference<>(timer);
    }

    /** Polls {@code condition}, asking for a collection before each look. */
    static void awaitWithGc(final BooleanSupplier condition) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            System.gc();
            return condition.getAsBoolean();
        });
    }
}
