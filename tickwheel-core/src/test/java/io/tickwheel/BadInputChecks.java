package io.tickwheel;

import static io.tickwheel.BadInputFixture.awaitFires;
import static io.tickwheel.TimerContractSupport.PATIENCE;
import static io.tickwheel.TimerContractSupport.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.BadInputRow.Check;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the accepted rows of {@code docs/BAD-INPUT.md} promise, one check per promise; each gets
 * the object the call returned.
 */
final class BadInputChecks {

    /** More than a century: a delay that did not overflow or get clamped to something short. */
    private static final long CENTURY_DAYS = 100 * 365;

    /** A timer built from the input: it schedules and fires. */
    static final Check FIRES = (f, before, result) -> awaitFires((Timer) result, 1);

    /** A timer built from the input has no pending limit (at least not 0, 1 or anything below 100). */
    static final Check NO_LIMIT = (f, before, result) -> {
        Timer timer = (Timer) result;
        for (int i = 0; i < 100; i++) {
            timer.newTimeout(BadInputTable.TASK, BadInputFixture.FAR_HOURS, TimeUnit.HOURS);
        }
        assertThat(timer.pendingTimeouts()).isEqualTo(100);
        assertThat(timer.stop()).hasSize(100);
    };

    /**
     * A timeout with a huge delay is pending and stays so: a probe scheduled after it, due in 1 ms,
     * has fired (the worker processed that tick), and it has not. An overflow into the past would
     * have fired it first. It can be cancelled, which gives its count back.
     */
    static final Check NEVER_EARLY = (f, before, result) -> {
        Timeout timeout = (Timeout) result;
        Timer timer = timeout.timer();
        long pending = timer.pendingTimeouts();
        awaitFires(timer, 1);
        assertThat(timeout.isExpired()).as("a huge delay fired").isFalse();
        assertThat(timeout.cancel()).isTrue();
        assertThat(timer.pendingTimeouts()).isEqualTo(pending - 1);
    };

    /** A zero or negative delay fires on the next tick. */
    static final Check FIRES_SOON = (f, before, result) -> awaitUntil(((Timeout) result)::isExpired);

    /**
     * A hierarchical timer whose tick is about 292 years: even a zero delay is due only at the end
     * of the first tick, so it waits (without spinning into an overflow), and can be cancelled.
     */
    static final Check HUGE_TICK = (f, before, result) -> {
        Timer timer = (Timer) result;
        Timeout timeout = timer.newTimeout(BadInputTable.TASK, 0, TimeUnit.NANOSECONDS);
        awaitFires(f.hierarchical, 2);
        assertThat(timeout.isExpired()).isFalse();
        assertThat(timer.pendingTimeouts()).isEqualTo(1);
        assertThat(timeout.cancel()).isTrue();
        assertThat(timer.stop()).isEmpty();
    };

    /** The hierarchical timer keeps a sub-millisecond tick, silently; it still fires. */
    static final Check NO_WARNING_AND_FIRES = (f, before, result) -> {
        assertThat(f.warnings).isEmpty();
        awaitFires((Timer) result, 1);
    };

    /** Both set the level size; the later call wins (both calls in the row end with 4 buckets). */
    static final Check LAST_CALL_WINS = (f, before, result) -> {
        HierarchicalWheelTimer.Builder builder = (HierarchicalWheelTimer.Builder) result;
        // The builder keeps its settings in one TimerOptions; 2 is log2 of 4 buckets per level.
        assertThat(BadInputFixture.fields(builder).toString()).contains("kind=HIERARCHICAL").contains("wheelSize=2,");
        awaitFires(f.own(builder.build()), 1);
    };

    /** A delayed task that is pending, due more than a century out, and cancellable. */
    static final Check FAR_TASK = (f, before, result) -> {
        ScheduledFuture<?> task = (ScheduledFuture<?>) result;
        assertThat(task.isDone()).isFalse();
        assertThat(task.getDelay(TimeUnit.DAYS)).isGreaterThan(CENTURY_DAYS);
        assertThat(task.cancel(false)).isTrue();
        assertThat(f.hierarchical.pendingTimeouts()).isEqualTo(before.hierarchicalPending());
    };

    /** A periodic task whose first run came at once and whose next is more than a century out. */
    static final Check RAN_ONCE_NEXT_FAR = (f, before, result) -> {
        ScheduledFuture<?> task = (ScheduledFuture<?>) result;
        awaitUntil(() -> task.getDelay(TimeUnit.DAYS) > CENTURY_DAYS);
        assertThat(task.isDone()).isFalse();
        assertThat(task.cancel(false)).isTrue();
    };

    /** A task with no delay to wait for: it runs now, on the workers. */
    static final Check RUNS_NOW = (f, before, result) ->
            ((Future<?>) result).get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);

    /**
     * A future with a huge timeout: the timeout is pending on the timer, the future waits, and
     * completing it cancels the timeout at once.
     */
    static final Check FUTURE_WAITS = (f, before, result) -> {
        @SuppressWarnings("unchecked")
        CompletableFuture<String> future = (CompletableFuture<String>) result;
        assertThat(f.hierarchical.pendingTimeouts()).isEqualTo(before.hierarchicalPending() + 1);
        awaitFires(f.hierarchical, 1);
        assertThat(future.isDone()).isFalse();
        future.complete("done");
        assertThat(f.hierarchical.pendingTimeouts()).isEqualTo(before.hierarchicalPending());
    };

    /** orTimeout whose delay has already passed: the future times out on the next tick. */
    static final Check TIMES_OUT = (f, before, result) -> {
        CompletableFuture<?> future = (CompletableFuture<?>) result;
        awaitUntil(future::isDone);
        assertThatThrownBy(future::join).hasCauseExactlyInstanceOf(TimeoutException.class);
    };

    /** A future that was already done is returned as it was, and nothing is scheduled. */
    static final Check UNTOUCHED = (f, before, result) -> {
        assertThat(((CompletableFuture<?>) result).join()).isEqualTo("done before");
        assertThat(f.hierarchical.pendingTimeouts()).isEqualTo(before.hierarchicalPending());
    };

    private BadInputChecks() {
    }

    /** A hashed timer built with a sub-millisecond tick logged that it uses 1 ms; it fires. */
    static Check warnedAndFires(final String warning) {
        return (f, before, result) -> {
            assertThat(f.warnings).anySatisfy(line -> assertThat(line).contains(warning));
            awaitFires((Timer) result, 1);
        };
    }

    /** The call returned {@code expected} (for a future: completed with it). */
    static Check returns(final Object expected) {
        return (f, before, result) -> {
            Object value = result instanceof Future<?> future
                    ? future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)
                    : result;
            assertThat(value).isEqualTo(expected);
        };
    }
}
