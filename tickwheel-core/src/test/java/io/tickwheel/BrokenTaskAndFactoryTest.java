package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two pieces of hostile input: a task whose {@code toString()} throws, and a {@link ThreadFactory}
 * that returns a thread it has already started.
 */
class BrokenTaskAndFactoryTest {

    static Stream<Function<ThreadFactory, Timer>> timers() {
        return Stream.of(
                factory -> HierarchicalWheelTimer.builder().threadFactory(factory)
                        .tickDuration(Duration.ofMillis(1)).build(),
                factory -> new HashedWheelTimer(factory, 10, TimeUnit.MILLISECONDS),
                factory -> HashedWheelTimer.builder().threadFactory(factory).build());
    }

    private static final class BrokenToString implements TimerTask {
        @Override
        public void run(final Timeout timeout) {
            // never due in the test
        }

        @Override
        public String toString() {
            throw new IllegalStateException("broken toString");
        }
    }

    @ParameterizedTest
    @MethodSource("timers")
    void toString_taskToStringThrows_describesTheTaskByClassInstead(final Function<ThreadFactory, Timer> make) {
        Timer timer = make.apply(r -> new Thread(r, "broken-task-timer"));
        try {
            Timeout timeout = timer.newTimeout(new BrokenToString(), 1, TimeUnit.HOURS);

            assertThat(timeout.toString()).contains(BrokenToString.class.getName(), "IllegalStateException",
                    "later");
            timeout.cancel();
            assertThat(timeout.toString()).contains("cancelled");
        } finally {
            timer.stop();
        }
    }

    /**
     * A factory that starts the thread before returning it breaks the ThreadFactory contract; the
     * timer says so when it is built, instead of failing its first newTimeout with an
     * IllegalThreadStateException and stopping, or running a second worker.
     */
    @ParameterizedTest
    @MethodSource("timers")
    void build_factoryReturnsStartedThread_throwsIllegalStateExceptionNamingTheFactory(
            final Function<ThreadFactory, Timer> make) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ThreadFactory startsIt = r -> {
            Thread thread = new Thread(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                r.run();
            }, "already-started");
            thread.setDaemon(true);
            thread.start();
            return thread;
        };
        try {
            assertThatThrownBy(() -> make.apply(startsIt))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("threadFactory")
                    .hasMessageContaining("already started");
        } finally {
            release.countDown();
        }
    }
}
