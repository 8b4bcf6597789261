package io.tickwheel.durable;

import io.tickwheel.Timer;
import io.tickwheel.Timers;
import io.tickwheel.durable.internal.DurableArgs;
import io.tickwheel.durable.internal.DurableStatsRecorder;
import io.tickwheel.durable.internal.HandlerRunner;
import io.tickwheel.durable.internal.Joins;
import io.tickwheel.durable.internal.OwnedResources;
import io.tickwheel.durable.internal.RefusedWork;
import io.tickwheel.durable.internal.WheelBridge;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;

/**
 * Timeouts that survive a restart: each is written to a {@link TimerStore} before {@code schedule}
 * returns, and is fired at least once, after its deadline, by a live process. A timeout is not an
 * object but a handler registered under a type name ({@link Builder#handler}), a key unique within
 * the type, and a payload; deadlines are {@link Instant}s on the builder's {@link Clock}.
 *
 * <pre>{@code
 * DurableTimer timer = DurableTimer.builder(JournalStore.open(Path.of("/var/lib/orders/timeouts")))
 *         .handler("close-order", t -> orders.closeIfUnpaid(t.key()))   // idempotent by key
 *         .build();                                                    // recovers, fires what is overdue
 * timer.schedule("close-order", orderId, new byte[0], Duration.ofMinutes(30));
 * // when paid:
 * timer.cancel("close-order", orderId);
 * }</pre>
 *
 * <ul>
 *   <li>Scheduling a {@code (type, key)} that is pending replaces it (renewal = schedule again).
 *       {@code schedule} and {@code cancel} are durable when they return; if the store fails they
 *       throw {@link java.io.UncheckedIOException} and nothing was acknowledged.</li>
 *   <li>At least once: the store records a run as done only after the handler returns, so a crash in
 *       between runs it again. A handler that throws is retried with backoff; after the last attempt
 *       the timeout moves to {@link #failed()}. A type with no handler here is kept, not fired.</li>
 *   <li>Never early by the clock; the clock is re-read at least every second, so after a forward
 *       jump what became due fires within a few seconds, and after a backward jump nothing fires
 *       early. A cancel cannot stop a handler that is already running; its outcome is then ignored.</li>
 * </ul>
 *
 * <p>Threading: thread-safe. Handlers run on the builder's executor, never on the wheel's thread.
 */
public final class DurableTimer implements AutoCloseable {

    private final TimerStore store;
    private final Clock clock;
    private final WheelBridge bridge;
    private final RefusedWork refused = new RefusedWork("tickwheel-durable-retry"); // what the wheel refused
    private final ExecutorService ownedExecutor;
    private final int maxPayloadBytes;
    private final DurableStatsRecorder stats = new DurableStatsRecorder();
    private volatile boolean closed;

    private DurableTimer(final Builder b, final Executor executor, final ExecutorService owned) {
        this.store = b.store;
        this.clock = b.clock;
        this.ownedExecutor = owned;
        this.maxPayloadBytes = store.maxPayloadBytes();
        HandlerRunner runner = new HandlerRunner(store, b.handlers, executor, b.timer, clock, b.maxAttempts,
                b.firstBackoff, () -> closed, stats, refused);
        this.bridge = new WheelBridge(b.timer, clock, runner::due, refused);
    }

    /**
     * Starts configuring a durable timer on a store.
     *
     * @param store where the timeouts are kept (for example {@link JournalStore#open})
     * @return a builder
     * @throws NullPointerException if {@code store} is null
     */
    public static Builder builder(final TimerStore store) {
        return new Builder(DurableArgs.notNull(store, "store"));
    }

    /**
     * Schedules (or replaces) a durable timeout; durable when this returns.
     *
     * @param type     the handler's name (1 to 128 chars)
     * @param key      unique within the type (1 to 512 bytes of UTF-8)
     * @param payload  stored with it (copied; at most the store's limit)
     * @param deadline when it is due, on this timer's clock
     * @return the stored timeout
     * @throws java.io.UncheckedIOException if the store failed (nothing was stored)
     * @throws IllegalStateException        after {@link #close()}
     */
    public DurableTimeout schedule(final String type, final String key, final byte[] payload, final Instant deadline) {
        return Joins.join(scheduleAsync(type, key, payload, deadline));
    }

    /**
     * Schedules (or replaces) a durable timeout due {@code delay} from now by this timer's clock.
     *
     * @param type    the handler's name
     * @param key     unique within the type
     * @param payload stored with it
     * @param delay   from now (zero or negative: due now)
     * @return the stored timeout
     */
    public DurableTimeout schedule(final String type, final String key, final byte[] payload, final Duration delay) {
        DurableArgs.notNull(delay, "delay");
        Instant deadline;
        try {
            deadline = clock.instant().plus(delay);
        } catch (DateTimeException | ArithmeticException e) {
            throw new IllegalArgumentException("delay: " + delay + " (expected: a deadline Instant can hold)", e);
        }
        return schedule(type, key, payload, deadline);
    }

    /**
     * Schedules without blocking; the future completes once the timeout is durable, or fails with
     * {@link java.io.UncheckedIOException}. Bad arguments and a closed timer throw at once.
     *
     * <p>A stage chained without an {@code *Async} method may run on the store's thread (the journal's
     * writer): a blocking call of this timer from it waits for itself, and every caller with it, for good.
     *
     * @param type     the handler's name
     * @param key      unique within the type
     * @param payload  stored with it
     * @param deadline when it is due
     * @return the future
     */
    public CompletableFuture<DurableTimeout> scheduleAsync(final String type, final String key, final byte[] payload,
            final Instant deadline) {
        DurableArgs.type(type);
        DurableArgs.key(key);
        DurableArgs.payload(payload, maxPayloadBytes);
        DurableArgs.notNull(deadline, "deadline");
        checkOpen();
        return stats.watchSchedule(() -> store.schedule(type, key, payload, deadline));
    }

    /**
     * Cancels a pending timeout, wherever in the store it is held; durable when this returns.
     *
     * @param type the handler's name
     * @param key  the key
     * @return true if it was pending (a handler already running is not stopped; its outcome is ignored)
     */
    public boolean cancel(final String type, final String key) {
        return Joins.join(cancelAsync(type, key));
    }

    /**
     * Cancels without blocking; dependent stages as for {@link #scheduleAsync(String, String, byte[], Instant)}.
     *
     * @param type the handler's name
     * @param key  the key
     * @return completes with true if it was pending, once the cancel is durable
     */
    public CompletableFuture<Boolean> cancelAsync(final String type, final String key) {
        DurableArgs.type(type);
        DurableArgs.key(key);
        checkOpen();
        return stats.watchCancel(() -> store.cancel(type, key));
    }

    /**
     * Looks up a pending timeout (retries included, failed ones not).
     *
     * @param type the handler's name
     * @param key  the key
     * @return it, or empty
     */
    public Optional<DurableTimeout> find(final String type, final String key) {
        DurableArgs.type(type);
        DurableArgs.key(key);
        checkOpen();
        return store.find(type, key).map(t -> t);
    }

    /**
     * Counts the pending timeouts in the whole store.
     *
     * @return the count
     */
    public long pendingTimeouts() {
        checkOpen();
        return store.pendingTimeouts();
    }

    /**
     * The timeouts that failed their last attempt.
     *
     * @return oldest first
     */
    public List<DurableTimeout> failed() {
        checkOpen();
        return List.copyOf(store.failed());
    }

    /**
     * Puts a failed timeout back to pending, due now, with attempt 1.
     *
     * @param type the handler's name
     * @param key  the key
     * @return true if it was in the failed set; durable when this returns
     */
    public boolean retryFailed(final String type, final String key) {
        DurableArgs.type(type);
        DurableArgs.key(key);
        checkOpen();
        return store.retryFailed(type, key, clock.instant());
    }

    /**
     * Returns what this timer did since it was built (see {@link DurableTimerStats}). Cheap: the store
     * is not read. Also works after {@link #close()}.
     *
     * @return the snapshot
     */
    public DurableTimerStats stats() {
        return new DurableTimerStats(stats.counts(), stats.scheduleLatency(), stats.cancelLatency());
    }

    /**
     * Stops firing, writes what is queued, and releases the store; pending timeouts stay stored.
     * Handlers already running finish; their outcomes may be lost (they run again after a restart).
     * Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // The bridge cancels on the caller's wheel, which may throw: the store is closed all the same,
        // or its threads and the directory's lock would outlive a timer that can no longer be closed.
        try {
            bridge.close();
        } finally {
            try {
                refused.close();
                store.close();
            } finally {
                if (ownedExecutor != null) {
                    ownedExecutor.shutdown();
                }
            }
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the durable timer is closed");
        }
    }

    @Override
    public String toString() {
        return "DurableTimer(" + store + (closed ? ", closed)" : ")");
    }

    /**
     * Configures a {@link DurableTimer}.
     *
     * <p>Threading: not thread-safe; confined to the thread that builds.
     */
    public static final class Builder {
        private final TimerStore store;
        private final Map<String, DurableTask> handlers = new HashMap<>();
        private Timer timer;
        private Executor executor;
        private int maxAttempts = 5;
        private Duration firstBackoff = Duration.ofSeconds(1);
        private Clock clock = Clock.systemUTC();

        private Builder(final TimerStore store) {
            this.store = store;
        }

        /**
         * Registers the handler of a type.
         *
         * @param type the type (1 to 128 chars)
         * @param task what runs when a timeout of that type is due
         * @return this builder
         * @throws IllegalArgumentException if the type already has a handler
         */
        public Builder handler(final String type, final DurableTask task) {
            DurableArgs.type(type);
            DurableArgs.notNull(task, "task");
            if (handlers.putIfAbsent(type, task) != null) {
                throw new IllegalArgumentException("type: '" + type + "' already has a handler");
            }
            return this;
        }

        /**
         * The in-memory wheel that holds timeouts due soon (default {@link Timers#shared()}); not
         * stopped by {@link DurableTimer#close()}.
         *
         * @param timer the wheel
         * @return this builder
         */
        public Builder timer(final Timer timer) {
            this.timer = DurableArgs.notNull(timer, "timer");
            return this;
        }

        /**
         * Runs the handlers (default: four daemon threads owned, and shut down, by the timer).
         *
         * @param executor the executor
         * @return this builder
         */
        public Builder executor(final Executor executor) {
            this.executor = DurableArgs.notNull(executor, "executor");
            return this;
        }

        /**
         * How a throwing handler is retried (default 5 attempts, 1 s first backoff, doubling).
         *
         * @param maxAttempts  runs before the timeout moves to {@code failed()} (at least 1)
         * @param firstBackoff delay before the second run (positive); doubles each time
         * @return this builder
         */
        public Builder retry(final int maxAttempts, final Duration firstBackoff) {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts: " + maxAttempts + " (expected: >= 1)");
            }
            DurableArgs.notNull(firstBackoff, "firstBackoff");
            if (firstBackoff.isNegative() || firstBackoff.isZero()) {
                throw new IllegalArgumentException("firstBackoff: " + firstBackoff + " (expected: > 0)");
            }
            this.maxAttempts = maxAttempts;
            this.firstBackoff = firstBackoff;
            return this;
        }

        /**
         * The clock deadlines are read on (default the UTC system clock).
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(final Clock clock) {
            this.clock = DurableArgs.notNull(clock, "clock");
            return this;
        }

        /**
         * Opens the store, recovers it, and starts firing (overdue timeouts first, in deadline order).
         *
         * @return the timer
         * @throws java.io.UncheckedIOException if the store cannot be recovered
         * @throws IllegalStateException        if the store is already open or locked elsewhere
         */
        public DurableTimer build() {
            if (timer == null) {
                timer = Timers.shared();
            }
            ExecutorService owned = null;
            Executor exec = executor;
            if (exec == null) {
                owned = OwnedResources.handlerPool();
                exec = owned;
            }
            DurableTimer d = new DurableTimer(this, exec, owned);
            boolean opened = false;
            try {
                store.open(d.bridge, clock);
                opened = true;
                d.bridge.start();
            } catch (RuntimeException | Error e) {
                // Once open the store is the timer's to close, or its threads and lock would outlive a caller
                // left with no reference; not before (a failed open may mean it is another timer's).
                d.closed = true;
                ExecutorService pool = owned;
                OwnedResources.closeAll(e, d.bridge::close, opened ? store : () -> { },
                        pool == null ? () -> { } : pool::shutdown);
                throw e;
            }
            return d;
        }
    }
}
