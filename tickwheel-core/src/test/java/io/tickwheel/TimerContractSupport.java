package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tickwheel.internal.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;

/**
 * What {@link TimerContractTest} runs on: the timer under test (one subclass per implementation and
 * configuration), a task that records what happened to it, and clean-up of every timer and executor
 * a test made. Waiting is always for an event, with a generous bound; nothing here measures lateness.
 *
 * <p>Threading: each test instance is confined to its test; probes are thread-safe.
 */
abstract class TimerContractSupport {

    static final Duration PATIENCE = Duration.ofSeconds(30);
    /** The tick of every configuration under test. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** What a test may choose; the subclass supplies everything else (kind of wheel, its size, 1 ms tick). */
    record Options(ThreadFactory threadFactory, long maxPending, Executor taskExecutor, Clock clock) {
    }

    private final List<Timer> timers = new CopyOnWriteArrayList<>();
    private final List<ExecutorService> executors = new CopyOnWriteArrayList<>();
    /** Every thread the timers of this test asked for. */
    final List<Thread> threads = new CopyOnWriteArrayList<>();
    /** Names of probes in the order they ran. */
    final Queue<String> order = new ConcurrentLinkedQueue<>();

    /**
     * Creates the timer under test with a 1 ms tick and leak detection on.
     *
     * @param options the test's choices
     * @return a new, unstarted timer
     */
    abstract Timer create(Options options);

    /** Starts the worker without scheduling anything ({@code start()} is not on {@link Timer}). */
    abstract void start(Timer timer);

    /** The logger the implementation writes to. */
    abstract String loggerName();

    @AfterEach
    final void stopEverything() {
        for (Timer timer : timers) {
            timer.stop();
        }
        for (ExecutorService executor : executors) {
            executor.shutdownNow();
        }
    }

    final ThreadFactory recordingThreadFactory() {
        return runnable -> {
            Thread thread = new Thread(runnable, "contract-worker-" + threads.size());
            thread.setDaemon(true);
            threads.add(thread);
            return thread;
        };
    }

    final Timer timer() {
        return timer(-1, null);
    }

    final Timer timer(final long maxPending, final Executor taskExecutor) {
        return timer(new Options(recordingThreadFactory(), maxPending, taskExecutor, Clock.SYSTEM));
    }

    final Timer timer(final Options options) {
        Timer timer = create(options);
        timers.add(timer);
        return timer;
    }

    final <E extends ExecutorService> E closeLater(final E executor) {
        executors.add(executor);
        return executor;
    }

    /** The worker thread of the only timer this test created. */
    final Thread workerThread() {
        assertThat(threads).hasSize(1);
        return threads.get(0);
    }

    final Probe probe(final String name) {
        return new Probe(name, order, timeout -> { });
    }

    /** A probe that, after recording its run, does {@code body}. */
    final Probe probe(final String name, final TimerTask body) {
        return new Probe(name, order, body);
    }

    /** Schedules {@code probe} after {@code delayMillis}, remembering the earliest moment it may run. */
    static Timeout schedule(final Timer timer, final Probe probe, final long delayMillis) {
        long delayNanos = Math.max(0, TimeUnit.MILLISECONDS.toNanos(delayMillis));
        probe.earliestNanos = System.nanoTime() + delayNanos;
        Timeout timeout = timer.newTimeout(probe, delayMillis, TimeUnit.MILLISECONDS);
        probe.latestNanos = System.nanoTime() + delayNanos;
        return timeout;
    }

    /**
     * Asserts the probes ran in deadline order. A deadline is only known to lie between the
     * {@code earliestNanos} and {@code latestNanos} that {@link #schedule} recorded, so only pairs whose
     * deadlines are surely a tick or more apart are compared (on a quiet machine: all of them).
     */
    final void assertDeadlineOrder(final List<Probe> probes) {
        assertDeadlineOrder(probes, order);
    }

    /** As {@link #assertDeadlineOrder(List)}, given the names in the order the probes ran. */
    static void assertDeadlineOrder(final List<Probe> probes, final Collection<String> runOrder) {
        List<String> ran = new ArrayList<>(runOrder);
        for (Probe earlier : probes) {
            for (Probe later : probes) {
                if (later.earliestNanos - earlier.latestNanos >= TICK_NANOS) {
                    assertThat(ran.indexOf(earlier.name)).as("%s ran before %s; run order %s", later, earlier, ran)
                            .isLessThan(ran.indexOf(later.name));
                }
            }
        }
    }

    static void awaitUntil(final BooleanSupplier condition) {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(2)).until(condition::getAsBoolean);
    }

    /**
     * Waits until {@code thread} is seen parked without a deadline (WAITING) at 20 looks in a row, a
     * millisecond apart. A thread that keeps waking up, say because an interrupt stays set and every
     * park returns at once, is caught RUNNABLE at one of them.
     */
    static void awaitParkedWithoutDeadline(final Thread thread) {
        awaitUntil(() -> {
            for (int look = 0; look < 20; look++) {
                if (thread.getState() != Thread.State.WAITING) {
                    return false;
                }
                sleepMillis(1);
            }
            return true;
        });
    }

    private static void sleepMillis(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static void awaitRuns(final Probe... probes) {
        awaitUntil(() -> {
            for (Probe probe : probes) {
                if (probe.runs() == 0) {
                    return false;
                }
            }
            return true;
        });
    }

    /**
     * Schedules a sentinel {@code delayMillis} out and waits for it. Tasks run in deadline order on
     * the worker, so once it ran, everything due before it has had its chance to run.
     */
    final void awaitSentinel(final Timer timer, final long delayMillis) {
        Probe sentinel = probe("sentinel");
        schedule(timer, sentinel, delayMillis);
        awaitRuns(sentinel);
    }

    /** Asserts a probe ran exactly once, not before its deadline, and was never told it was cancelled. */
    static void assertRanOnceOnTime(final Probe probe) {
        assertThat(probe.runs()).as("runs of %s", probe).isEqualTo(1);
        assertThat(probe.cancelledCalls()).as("cancelled() calls of %s", probe).isZero();
        assertThat(probe.ranAtNanos - probe.earliestNanos).as("%s ran this many ns after its deadline", probe)
                .isGreaterThanOrEqualTo(0);
    }

    /** A task that records each call, the thread and the time it ran on. */
    static final class Probe implements TimerTask {
        private final String name;
        private final Queue<String> order;
        private final TimerTask body;
        private final AtomicInteger runs = new AtomicInteger();
        private final AtomicInteger cancelledCalls = new AtomicInteger();
        final AtomicReference<Thread> ranOn = new AtomicReference<>();
        final AtomicReference<Thread> cancelledOn = new AtomicReference<>();
        volatile long earliestNanos;
        volatile long latestNanos;
        volatile long ranAtNanos;

        Probe(final String name, final Queue<String> order, final TimerTask body) {
            this.name = name;
            this.order = order;
            this.body = body;
        }

        @Override
        public void run(final Timeout timeout) throws Exception {
            ranAtNanos = System.nanoTime();
            ranOn.set(Thread.currentThread());
            order.add(name);
            runs.incrementAndGet();
            body.run(timeout);
        }

        @Override
        public void cancelled(final Timeout timeout) {
            cancelledOn.set(Thread.currentThread());
            cancelledCalls.incrementAndGet();
        }

        String name() {
            return name;
        }

        int runs() {
            return runs.get();
        }

        int cancelledCalls() {
            return cancelledCalls.get();
        }

        @Override
        public String toString() {
            return "Probe(" + name + ")";
        }
    }

    /** Names {@code count} probes {@code prefix-0 ... prefix-(count-1)}. */
    final List<Probe> probes(final String prefix, final int count) {
        List<Probe> probes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            probes.add(probe(prefix + "-" + i));
        }
        return probes;
    }
}
