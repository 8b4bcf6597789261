package io.tickwheel.durable.internal;

import io.tickwheel.Timer;
import io.tickwheel.durable.DurableTask;
import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import io.tickwheel.durable.internal.DurableStatsRecorder.Counter;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs a due timeout: finds its handler, {@linkplain TimerStore#claim claims} it through the store
 * right before running, runs the handler on the executor, and records the outcome with exactly one
 * of {@code done} (it returned), {@code retry} (it threw and attempts remain; next attempt after
 * {@code firstBackoff * 2^(attempt - 1)}) or {@code fail} (the last attempt threw; logged at ERROR).
 * A type with no handler is not claimed, so it stays pending in the store for a process that has
 * one (logged at WARNING once per type). If recording an outcome fails (the disk), it is tried again
 * every second until it succeeds or the timer closes; until then the timeout stays claimed here,
 * and after a restart it runs again (at least once). A delay of "a second" is a wheel timeout; if
 * the wheel refuses it (stopped by its owner, its pending limit, an {@code Error}), the work goes to
 * {@link RefusedWork} instead of being dropped: the timeout is only in this process's memory. Refused
 * claims, outcomes and failed outcome records are counted in the timer's {@link DurableStatsRecorder}.
 *
 * <p>Threading: thread-safe; {@link #due} is called on the wheel's thread and only hands over to the
 * executor; handlers and outcome calls run on the executor's threads, outcome completions on the
 * store's writer thread.
 */
public final class HandlerRunner {

    private static final System.Logger LOG = System.getLogger(HandlerRunner.class.getName());

    private final TimerStore store;
    private final Map<String, DurableTask> handlers;
    private final Executor executor;
    private final Timer wheel;
    private final Clock clock;
    private final int maxAttempts;
    private final Duration firstBackoff;
    private final BooleanSupplier closed;
    private final DurableStatsRecorder stats;
    private final RefusedWork refused;
    private final Set<String> warnedTypes = ConcurrentHashMap.newKeySet();

    /**
     * Creates a runner.
     *
     * @param store        the store
     * @param handlers     handlers by type (not changed afterwards)
     * @param executor     runs handlers
     * @param wheel        for delayed re-tries of refused work
     * @param clock        the timer's clock
     * @param maxAttempts  attempts before a timeout fails
     * @param firstBackoff delay before the first retry
     * @param closed       whether the timer is closed
     * @param stats        counts claims refused, outcomes and store errors
     * @param refused      where work goes that the wheel refused to delay
     */
    public HandlerRunner(final TimerStore store, final Map<String, DurableTask> handlers, final Executor executor,
            final Timer wheel, final Clock clock, final int maxAttempts, final Duration firstBackoff,
            final BooleanSupplier closed, final DurableStatsRecorder stats, final RefusedWork refused) {
        this.store = store;
        this.handlers = Map.copyOf(handlers);
        this.executor = executor;
        this.wheel = wheel;
        this.clock = clock;
        this.maxAttempts = maxAttempts;
        this.firstBackoff = firstBackoff;
        this.closed = closed;
        this.stats = stats;
        this.refused = refused;
    }

    /**
     * Takes a due timeout (from the bridge).
     *
     * @param t the timeout
     */
    public void due(final StoredTimeout t) {
        DurableTask task = handlers.get(t.type());
        if (task == null) {
            if (warnedTypes.add(t.type())) {
                LOG.log(Level.WARNING, "no handler for durable timeout type '" + t.type()
                        + "' in this process; its timeouts are kept pending and not fired");
            }
            return;
        }
        submit(() -> run(task, t));
    }

    private void submit(final Runnable r) {
        if (closed.getAsBoolean()) {
            return;
        }
        try {
            executor.execute(r);
        } catch (RuntimeException | Error e) {
            // Not only RejectedExecutionException: an Error (OutOfMemoryError: unable to create native
            // thread) or an executor's own exception too. The timeout is only in this process's
            // memory, so dropping it here would leave it pending until a restart.
            LOG.log(Level.WARNING, "the durable timer's executor refused work; trying again in a second", e);
            later(() -> submit(r));
        }
    }

    private void later(final Runnable r) {
        if (closed.getAsBoolean()) {
            return;
        }
        try {
            wheel.newTimeout(x -> r.run(), 1, TimeUnit.SECONDS);
        } catch (RuntimeException | Error e) {
            refused.add(r, e);
        }
    }

    private void run(final DurableTask task, final StoredTimeout t) {
        if (closed.getAsBoolean()) {
            return;
        }
        boolean claimed;
        try {
            claimed = store.claim(t);
        } catch (RuntimeException | Error e) {
            // A store whose claim throws cannot say who owns the timeout: ask again in a second
            // rather than drop it (it would stay pending in the store until a restart).
            LOG.log(Level.WARNING, "the store's claim threw for durable timeout " + t.type() + "/" + t.key()
                    + "; asking again in a second", e);
            later(() -> submit(() -> run(task, t)));
            return;
        }
        if (!claimed) {
            stats.increment(Counter.CLAIM_REFUSED);
            return;
        }
        Throwable failure = null;
        try {
            task.run(t);
        } catch (Exception | Error e) {
            failure = e;
        }
        if (failure == null) {
            stats.increment(Counter.FIRED);
        }
        record(t, failure);
    }

    // The outcome's future is watched by the callback added here; nothing else waits for it.
    @SuppressWarnings("FutureReturnValueIgnored")
    private void record(final StoredTimeout t, final Throwable failure) {
        CompletableFuture<?> f;
        // What to count once the store has recorded the outcome; a run that returned is counted already.
        Counter recorded = failure == null ? null : t.attempt() < maxAttempts ? Counter.RETRIED : Counter.FAILED;
        try {
            if (failure == null) {
                f = store.done(t);
            } else if (recorded == Counter.RETRIED) {
                LOG.log(Level.DEBUG, () -> "durable timeout " + t + " threw; retrying");
                f = store.retry(t, nextDeadline(t.attempt()));
            } else {
                LOG.log(Level.ERROR, "durable timeout " + t.type() + "/" + t.key() + " failed its last attempt ("
                        + t.attempt() + "); moved to failed()", failure);
                f = store.fail(t, oneLine(failure));
            }
        } catch (RuntimeException | Error e) {
            // An Error too (the user's clock in nextDeadline, the store): escaping here, it would
            // leave the timeout claimed with no outcome until a restart; it is tried again instead.
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((ok, e) -> {
            if (e == null) {
                if (recorded != null) {
                    stats.increment(recorded);
                }
                return;
            }
            stats.increment(Counter.STORE_ERRORS);
            if (!closed.getAsBoolean()) {
                LOG.log(Level.WARNING, "cannot record the outcome of " + t + "; trying again in a second", e);
                later(() -> submit(() -> record(t, failure)));
            }
        });
    }

    private Instant nextDeadline(final int attempt) {
        int shift = Math.min(attempt - 1, 30);
        Duration backoff;
        try {
            backoff = firstBackoff.multipliedBy(1L << shift);
        } catch (ArithmeticException tooLong) {
            backoff = Duration.ofDays(365);
        }
        return clock.instant().plus(backoff);
    }

    private static String oneLine(final Throwable e) {
        String s = e.toString();
        int nl = s.indexOf('\n');
        s = nl < 0 ? s : s.substring(0, nl);
        return s.length() > 1000 ? s.substring(0, 1000) : s;
    }
}
