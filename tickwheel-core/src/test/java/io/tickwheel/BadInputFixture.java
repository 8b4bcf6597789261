package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.internal.LeakGuardAccess;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.stream.Collectors;

/**
 * The objects a {@link BadInputTest} row calls into, each already busy (a far timeout or task
 * pending), so a bad call that changed anything would show in {@link #snapshot()}; and the check
 * that they all still work after the row. Every thread any of them makes comes from
 * {@link #factory}, which counts, so "no thread was made" is observable even before one starts.
 *
 * <p>Threading: confined to the test thread, except the counters, which the pool's and timers'
 * threads may touch.
 */
final class BadInputFixture implements AutoCloseable {

    static final TimeUnit MS = TimeUnit.MILLISECONDS;
    /** A delay no row waits for: what keeps each object busy. */
    static final long FAR_HOURS = 1;

    private final AtomicInteger threadsMade = new AtomicInteger();
    private final List<Object> owned = new CopyOnWriteArrayList<>();
    /** Makes every thread of this fixture's objects, and of the objects rows create with it. */
    final ThreadFactory factory = runnable -> {
        Thread thread = new Thread(runnable, "bad-input-" + threadsMade.getAndIncrement());
        thread.setDaemon(true);
        return thread;
    };
    /** Warnings logged by the last {@link #capturingWarnings} call. */
    List<String> warnings = List.of();

    final HashedWheelTimer hashed = own(new HashedWheelTimer(factory, 1, MS, 8));
    final HierarchicalWheelTimer hierarchical = own(HierarchicalWheelTimer.builder().threadFactory(factory).build());
    /** At its pending limit of 1. */
    final HashedWheelTimer limited = own(new HashedWheelTimer(factory, 1, MS, 8, true, 1));
    /** Never started: a bad call must not start it. */
    final HierarchicalWheelTimer idle = own(HierarchicalWheelTimer.builder().threadFactory(factory).build());
    /** Stopped before any row runs. */
    final HierarchicalWheelTimer stopped = HierarchicalWheelTimer.builder().threadFactory(factory).build();
    final ExecutorService workers = own(Executors.newFixedThreadPool(1, factory));
    final WheelScheduledExecutorService executor = own(new WheelScheduledExecutorService(hierarchical, workers));
    /** Shut down before any row runs. */
    final WheelScheduledExecutorService shutDown = new WheelScheduledExecutorService(hierarchical, workers);
    final ScheduledFuture<String> farTask = executor.schedule(() -> "far", FAR_HOURS, TimeUnit.HOURS);
    final CompletableFuture<String> future = new CompletableFuture<>();
    final HashedWheelTimer.Builder hashedBuilder = HashedWheelTimer.builder().threadFactory(factory);
    final HierarchicalWheelTimer.Builder hierarchicalBuilder = HierarchicalWheelTimer.builder().threadFactory(factory);
    private final Timeout limitedFar;

    BadInputFixture() {
        Timers.shared(); // created (and counted) on first use: by now, not by a row's bad call
        hashed.newTimeout(timeout -> { }, FAR_HOURS, TimeUnit.HOURS);
        hierarchical.newTimeout(timeout -> { }, FAR_HOURS, TimeUnit.HOURS);
        limitedFar = limited.newTimeout(timeout -> { }, FAR_HOURS, TimeUnit.HOURS);
        stopped.stop();
        shutDown.shutdown();
    }

    /** What a rejected call must leave as it was. */
    record State(int threadsMade, long hashedPending, long hierarchicalPending, long limitedPending,
            Thread.State idleWorker, boolean executorShutdown, boolean farTaskDone, boolean futureDone,
            List<Object> hashedBuilder, List<Object> hierarchicalBuilder, Set<Thread> tickwheelThreads,
            int liveTimers) {

        /** Equal but for the two JVM-wide readings, which other tests' leaked timers may lower meanwhile. */
        void assertUnchangedBy(final State after, final String call) {
            assertThat(after.local()).as("%s changed something", call).isEqualTo(local());
            assertThat(tickwheelThreads).as("%s started a tickwheel thread", call).containsAll(after.tickwheelThreads);
            assertThat(after.liveTimers).as("%s counted a timer", call).isLessThanOrEqualTo(liveTimers);
        }

        private State local() {
            return new State(threadsMade, hashedPending, hierarchicalPending, limitedPending, idleWorker,
                    executorShutdown,
                    farTaskDone, futureDone, hashedBuilder, hierarchicalBuilder, Set.of(), 0);
        }
    }

    State snapshot() {
        Set<Thread> tickwheelThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("tickwheel-")).collect(Collectors.toSet());
        return new State(threadsMade.get(), hashed.pendingTimeouts(), hierarchical.pendingTimeouts(),
                limited.pendingTimeouts(), idle.core().workerThread().getState(), executor.isShutdown(),
                farTask.isDone(), future.isDone(), fields(hashedBuilder), fields(hierarchicalBuilder),
                tickwheelThreads, LeakGuardAccess.live());
    }

    /** A builder's settings, read reflectively: builders have no getters, and a bad call must not change any. */
    static List<Object> fields(final Object builder) {
        List<Object> values = new ArrayList<>();
        for (Field field : builder.getClass().getDeclaredFields()) {
            field.setAccessible(true);
            try {
                values.add(field.getName() + "=" + field.get(builder));
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        return values;
    }

    /** Keeps a timer or executor a row made, to stop it when the row ends. */
    <T> T own(final T made) {
        if (made instanceof Timer || made instanceof ExecutorService) {
            owned.add(made);
        }
        return made;
    }

    int threadsMade() {
        return threadsMade.get();
    }

    /** Runs {@code call} while capturing the warnings of both timers' loggers into {@link #warnings}. */
    <T> T capturingWarnings(final Callable<T> call) throws Exception {
        try (LogCapture hashedLog = LogCapture.of("io.tickwheel.HashedWheelTimer");
                LogCapture hierarchicalLog = LogCapture.of("io.tickwheel.HierarchicalWheelTimer")) {
            T made = call.call();
            List<String> lines = new ArrayList<>(hashedLog.lines(Level.WARNING));
            lines.addAll(hierarchicalLog.lines(Level.WARNING));
            warnings = lines;
            return made;
        }
    }

    /**
     * Schedules a timeout {@code delayMillis} out on {@code timer} and waits until it has run:
     * proof that its worker is alive and has processed every tick up to then.
     */
    static void awaitFires(final Timer timer, final long delayMillis) {
        Timeout probe = timer.newTimeout(timeout -> { }, delayMillis, MS);
        TimerContractSupport.awaitUntil(probe::isExpired);
    }

    /** After a row: every object still does its job, and the one at its limit still refuses. */
    void assertStillWorks() throws Exception {
        awaitFires(hashed, 1);
        awaitFires(hierarchical, 1);
        assertThat(executor.schedule(() -> "after", 1, MS).get(TimerContractSupport.PATIENCE.toMillis(), MS))
                .isEqualTo("after");
        assertThat(limitedFar.cancel()).as("the limited timer's own timeout was still pending").isTrue();
        awaitFires(limited, 1);
        awaitFires(idle, 1);
        assertThat(farTask.isDone()).isFalse();
        assertThat(future.isDone()).isFalse();
    }

    @Override
    public void close() {
        List<Object> newestFirst = new ArrayList<>(owned);
        Collections.reverse(newestFirst);
        for (Object made : newestFirst) {
            if (made instanceof Timer timer) {
                timer.stop();
            } else {
                ((ExecutorService) made).shutdownNow();
            }
        }
    }
}
