package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code stop()} returns once the worker thread has ended, as Netty's does: callers check
 * {@code isAlive()} for thread leaks. The factory's threads linger after the worker's run (as a
 * wrapper that cleans up would), so a stop() that returned at the end of the drain would find the
 * thread alive every time.
 */
class StopJoinsWorkerThreadTest {

    private static final long LINGER_MILLIS = 200;

    static Stream<Function<ThreadFactory, Timer>> timers() {
        return Stream.of(
                f -> HierarchicalWheelTimer.builder().threadFactory(f).build(),
                f -> HashedWheelTimer.builder().threadFactory(f).tickDuration(Duration.ofMillis(10)).build());
    }

    /** Makes daemon threads that stay alive {@link #LINGER_MILLIS} after the worker's run returns. */
    private static final class LingeringFactory implements ThreadFactory {
        final CopyOnWriteArrayList<Thread> made = new CopyOnWriteArrayList<>();

        @Override
        public Thread newThread(final Runnable r) {
            Thread t = new Thread(() -> {
                r.run();
                try {
                    Thread.sleep(LINGER_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "lingering-worker");
            t.setDaemon(true);
            made.add(t);
            return t;
        }
    }

    @ParameterizedTest
    @MethodSource("timers")
    void stop_returnsOnceTheWorkerThreadHasEnded(final Function<ThreadFactory, Timer> make) {
        LingeringFactory factory = new LingeringFactory();
        Timer timer = make.apply(factory);
        timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
        long started = System.nanoTime();
        assertThat(timer.stop()).hasSize(1);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(factory.made).hasSize(1);
        assertThat(factory.made.get(0).isAlive()).as("the worker thread after stop() returned").isFalse();
        assertThat(tookMillis).as("stop() waited for the linger").isGreaterThanOrEqualTo(LINGER_MILLIS - 20);
        // A second stop() returns at once with nothing, the thread still ended.
        assertThat(timer.stop()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("timers")
    void stop_onAnInterruptedThread_stillWaitsForTheThread_andKeepsTheInterrupt(
            final Function<ThreadFactory, Timer> make) {
        LingeringFactory factory = new LingeringFactory();
        Timer timer = make.apply(factory);
        timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
        Thread.currentThread().interrupt();
        try {
            assertThat(timer.stop()).hasSize(1);
            assertThat(Thread.currentThread().isInterrupted()).as("the caller's interrupt is kept").isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(factory.made.get(0).isAlive()).as("the worker thread after stop() returned").isFalse();
    }

    @ParameterizedTest
    @MethodSource("timers")
    void stop_ofATimerThatNeverStarted_returnsAtOnce(final Function<ThreadFactory, Timer> make) {
        LingeringFactory factory = new LingeringFactory();
        Timer timer = make.apply(factory);
        assertThat(timer.stop()).isEmpty();
        assertThat(factory.made).allSatisfy(t -> assertThat(t.isAlive()).isFalse());
    }
}
