package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A task (or its {@code cancelled()} callback) throws an exception whose {@code getMessage()}
 * throws an Error: the JDK's log handlers format the stack trace, which calls it, and catch only
 * {@code Exception}, so logging the task's failure threw. One task's odd exception must not stop
 * the timer: the failure is logged by class instead, and every other timeout fires.
 */
class BrokenThrowableTest {

    static Stream<Supplier<Timer>> timers() {
        return Stream.of(
                () -> HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build(),
                () -> new HashedWheelTimer(10, TimeUnit.MILLISECONDS));
    }

    /** Its message cannot be computed: the Error a recursive, lazily built message would throw. */
    private static final class UnprintableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        @Override
        public String getMessage() {
            throw new StackOverflowError("while building the message");
        }
    }

    @ParameterizedTest
    @MethodSource("timers")
    void aTaskWhoseExceptionCannotBeLogged_stopsNothing(final Supplier<Timer> make) throws Exception {
        Timer timer = make.get();
        try {
            timer.newTimeout(t -> {
                throw new UnprintableException();
            }, 1, TimeUnit.MILLISECONDS);
            CountDownLatch later = new CountDownLatch(1);
            timer.newTimeout(t -> later.countDown(), 50, TimeUnit.MILLISECONDS);
            assertThat(later.await(10, TimeUnit.SECONDS)).as("a later timeout still fires").isTrue();
            CountDownLatch after = new CountDownLatch(1);
            timer.newTimeout(t -> after.countDown(), 1, TimeUnit.MILLISECONDS);
            assertThat(after.await(10, TimeUnit.SECONDS)).as("and the timer still takes new ones").isTrue();
        } finally {
            timer.stop();
        }
    }

    @ParameterizedTest
    @MethodSource("timers")
    void aCancelledCallbackWhoseExceptionCannotBeLogged_stillReturnsFromCancel(final Supplier<Timer> make)
            throws Exception {
        Timer timer = make.get();
        try {
            Timeout timeout = timer.newTimeout(new TimerTask() {
                @Override
                public void run(final Timeout t) {
                    // never due in the test
                }

                @Override
                public void cancelled(final Timeout t) {
                    throw new UnprintableException();
                }
            }, 1, TimeUnit.HOURS);
            assertThat(timeout.cancel()).as("cancel() returns despite the callback").isTrue();
            CountDownLatch later = new CountDownLatch(1);
            timer.newTimeout(t -> later.countDown(), 1, TimeUnit.MILLISECONDS);
            assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            timer.stop();
        }
    }
}
