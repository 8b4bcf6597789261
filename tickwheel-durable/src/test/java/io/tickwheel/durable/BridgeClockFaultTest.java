package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A user clock that throws where the wheel bridge reads it (arming a delivered timeout, checking
 * one the wheel fired, the ticker that follows clock jumps): the acknowledged timeout still fires,
 * once, when the clock recovers, and the ticker goes on following jumps.
 */
class BridgeClockFaultTest {

    @TempDir
    Path dir;

    private final List<DurableTimeout> runs = new CopyOnWriteArrayList<>();
    /** Faults of the test's clock carried by WARNING (or worse) records, from any logger. */
    private List<Throwable> clockReports;
    private WarningLog reports;

    @BeforeEach
    void listen() {
        reports = WarningLog.on("", Failure::isFault);
        clockReports = reports.thrown();
    }

    @AfterEach
    void stopListening() {
        reports.close();
    }

    /** What the clock throws. */
    enum Failure {
        RUNTIME_EXCEPTION,
        ERROR;

        Throwable make() {
            return this == ERROR ? new InternalError("clock broke") : new IllegalStateException("clock unavailable");
        }

        /** Whether {@code t}, or one of its causes, is what {@link #make} throws. */
        static boolean isFault(final Throwable t) {
            for (Throwable c = t; c != null; c = c.getCause()) {
                if ((c instanceof InternalError && "clock broke".equals(c.getMessage()))
                        || (c instanceof IllegalStateException && "clock unavailable".equals(c.getMessage()))) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * A {@link MutableClock} that throws for its next {@code faults} reads made directly
     * by one method of {@code WheelBridge} (or of the class named).
     */
    static final class FaultyClock extends Clock {
        /** The time it tells when it does not throw. */
        private final MutableClock base = new MutableClock();
        private final AtomicInteger faults = new AtomicInteger();
        private final String className;
        private final String method;
        private final Failure failure;

        FaultyClock(final String method, final Failure failure) {
            this(".WheelBridge", method, failure);
        }

        FaultyClock(final String className, final String method, final Failure failure) {
            this.className = className;
            this.method = method;
            this.failure = failure;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(final ZoneId zone) {
            throw new UnsupportedOperationException("UTC only");
        }

        @Override
        public long millis() {
            return instant().toEpochMilli();
        }

        @Override
        public Instant instant() {
            if (faults.get() > 0 && readBy(className, method) && faults.getAndDecrement() > 0) {
                Throwable t = failure.make();
                if (t instanceof RuntimeException e) {
                    throw e;
                }
                throw (Error) t;
            }
            return base.instant();
        }

        private static boolean readBy(final String className, final String method) {
            Optional<String> reader = StackWalker.getInstance().walk(frames -> frames
                    .filter(f -> f.getClassName().endsWith(className))
                    .map(StackWalker.StackFrame::getMethodName)
                    .findFirst());
            return reader.isPresent() && reader.get().equals(method);
        }
    }

    private DurableTimer timer(final Clock clock) {
        return DurableTimer.builder(JournalStore.open(dir)).clock(clock).handler("t", runs::add).build();
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void clockThrowsWhenADeliveredTimeoutIsArmed_itFiresOnceTheClockRecovers(final Failure failure) {
        FaultyClock clock = new FaultyClock("arm", failure);
        try (DurableTimer timer = timer(clock)) {
            clock.faults.set(3);
            timer.schedule("t", "k", new byte[0], clock.instant().plusMillis(300));
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 1);
            assertThat(clock.faults.get()).as("every fault was thrown").isNotPositive();
            assertThat(runs.get(0).key()).isEqualTo("k");
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
            assertThat(runs).hasSize(1);
            assertThat(clockReports).as("the clock's failure is logged").isNotEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void clockThrowsWhenTheWheelFiresATimeout_itFiresOnceTheClockRecovers(final Failure failure) {
        FaultyClock clock = new FaultyClock("check", failure);
        try (DurableTimer timer = timer(clock)) {
            clock.faults.set(1); // the retry arms it again through arm(), which finds it due
            timer.schedule("t", "k", new byte[0], clock.instant().plusMillis(300));
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 1);
            assertThat(clock.faults.get()).as("every fault was thrown").isNotPositive();
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
            assertThat(runs).hasSize(1);
            assertThat(clockReports).as("the clock's failure is logged").isNotEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void clockThrowsInTheTicker_theTickerStillFollowsALaterJump(final Failure failure) {
        FaultyClock clock = new FaultyClock("followClockJumps", failure);
        try (DurableTimer timer = timer(clock)) {
            Instant deadline = clock.instant().plus(Duration.ofHours(1));
            timer.schedule("t", "hour", new byte[0], deadline);
            clock.faults.set(2);
            await().atMost(Duration.ofSeconds(10)).until(() -> clock.faults.get() <= 0);
            long t0 = System.nanoTime();
            clock.base.jump(Duration.ofHours(1).plusSeconds(1));
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.size() == 1);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("fired within seconds of the jump")
                    .isLessThan(Duration.ofSeconds(5));
            assertThat(runs.get(0).key()).isEqualTo("hour");
            assertThat(clockReports).as("the clock's failures are logged").hasSizeGreaterThanOrEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void clockThrowsWhenAFailedRunIsGivenItsRetryTime_theRetryStillHappens(final Failure failure) {
        FaultyClock clock = new FaultyClock(".HandlerRunner", "nextDeadline", failure);
        AtomicInteger attempts = new AtomicInteger();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).clock(clock)
                .retry(3, Duration.ofMillis(100))
                .handler("t", t -> {
                    runs.add(t);
                    if (attempts.incrementAndGet() == 1) {
                        throw new IllegalStateException("first attempt fails");
                    }
                }).build()) {
            clock.faults.set(1);
            timer.schedule("t", "k", new byte[0], clock.instant().plusMillis(100));
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
            assertThat(clock.faults.get()).as("every fault was thrown").isNotPositive();
            assertThat(runs).extracting(DurableTimeout::attempt).containsExactly(1, 2);
            assertThat(timer.failed()).isEmpty();
            assertThat(clockReports).as("the clock's failure is logged").isNotEmpty();
        }
    }
}
