package io.tickwheel;

import io.tickwheel.internal.Checks;
import io.tickwheel.internal.Clock;
import io.tickwheel.internal.NamedThreadFactory;
import io.tickwheel.internal.TimeoutOwner;
import io.tickwheel.internal.TimerCore;
import io.tickwheel.internal.TimerOptions;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Timer} with the API and behaviour of Netty's {@code io.netty.util.HashedWheelTimer},
 * so code moves over by changing imports: one ring of buckets (Varghese and Lauck's hashed
 * wheel), tick 100 ms and 512 buckets by default, tasks run on one worker thread.
 *
 * <p>What it does better than Netty's: the worker sleeps until the next bucket that holds a due
 * timeout instead of waking every tick; cancelled timeouts are dropped in bulk rather than kept
 * until their bucket comes round; {@link #pendingTimeouts()} stays exact through rejections and
 * {@link #stop()}; a {@code newTimeout} racing {@code stop()} is either refused or returned by
 * it, never lost; a task executor's refusal is logged, not silent.
 *
 * <p>Accuracy is one tick: a timeout fires on the first tick at or after its deadline, never
 * before. For sub-tick accuracy without the per-bucket scan of far timeouts, use
 * {@link HierarchicalWheelTimer}.
 *
 * <pre>{@code
 * Timer timer = new HashedWheelTimer(10, TimeUnit.MILLISECONDS);
 * Timeout timeout = timer.newTimeout(t -> request.fail("timed out"), 30, TimeUnit.SECONDS);
 * // ... the response arrived in time:
 * timeout.cancel();
 * }</pre>
 *
 * <p>Threading: thread-safe; tasks run on the worker thread, in deadline-bucket order, unless a
 * task executor was given.
 */
public final class HashedWheelTimer implements Timer {

    /**
     * One for every timer built without a factory, so their threads are numbered apart
     * ({@code tickwheel-hashed-1}, {@code -2}...) and a thread dump, a slow-task warning or a JFR
     * event names the timer. Netty's default factory makes non-daemon threads; kept, so a JVM does
     * not exit with timeouts pending unless the application chose daemon threads.
     */
    private static final ThreadFactory DEFAULT_THREAD_FACTORY = new NamedThreadFactory("tickwheel-hashed-", false);

    private static final String NAME = "HashedWheelTimer";
    private static final long MILLISECOND_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int MAX_TICKS_PER_WHEEL = 1 << 30;
    private static final long DEFAULT_TICK_MILLIS = 100;
    private static final int DEFAULT_TICKS_PER_WHEEL = 512;

    private final TimerCore core;
    /** What this timer's timeouts keep: this timer and its engine. */
    private final TimeoutOwner owner;

    /** Creates a timer with a 100 ms tick and 512 ticks per wheel. */
    public HashedWheelTimer() {
        this(defaultThreadFactory());
    }

    /**
     * Creates a timer with 512 ticks per wheel.
     *
     * @param tickDuration the tick length
     * @param unit the unit of {@code tickDuration}
     */
    public HashedWheelTimer(final long tickDuration, final TimeUnit unit) {
        this(defaultThreadFactory(), tickDuration, unit);
    }

    /**
     * Creates a timer.
     *
     * @param tickDuration the tick length
     * @param unit the unit of {@code tickDuration}
     * @param ticksPerWheel the number of buckets, rounded up to a power of two
     */
    public HashedWheelTimer(final long tickDuration, final TimeUnit unit, final int ticksPerWheel) {
        this(defaultThreadFactory(), tickDuration, unit, ticksPerWheel);
    }

    /**
     * Creates a timer with a 100 ms tick and 512 ticks per wheel.
     *
     * @param threadFactory makes the worker thread
     */
    public HashedWheelTimer(final ThreadFactory threadFactory) {
        this(threadFactory, DEFAULT_TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Creates a timer with 512 ticks per wheel.
     *
     * @param threadFactory makes the worker thread
     * @param tickDuration the tick length
     * @param unit the unit of {@code tickDuration}
     */
    public HashedWheelTimer(final ThreadFactory threadFactory, final long tickDuration, final TimeUnit unit) {
        this(threadFactory, tickDuration, unit, DEFAULT_TICKS_PER_WHEEL);
    }

    /**
     * Creates a timer with leak detection on.
     *
     * @param threadFactory makes the worker thread
     * @param tickDuration the tick length
     * @param unit the unit of {@code tickDuration}
     * @param ticksPerWheel the number of buckets, rounded up to a power of two
     */
    public HashedWheelTimer(final ThreadFactory threadFactory, final long tickDuration, final TimeUnit unit,
            final int ticksPerWheel) {
        this(threadFactory, tickDuration, unit, ticksPerWheel, true);
    }

    /**
     * Creates a timer with no pending limit.
     *
     * @param threadFactory makes the worker thread
     * @param tickDuration the tick length
     * @param unit the unit of {@code tickDuration}
     * @param ticksPerWheel the number of buckets, rounded up to a power of two
     * @param leakDetection whether to log a timer collected without {@link #stop()}
     */
    public HashedWheelTimer(final ThreadFactory threadFactory, final long tickDuration, final TimeUnit unit,
            final int ticksPerWheel, final boolean leakDetection) {
        this(threadFactory, tickDuration, unit, ticksPerWheel, leakDetection, -1);
    }

    /**
     * Creates a timer whose tasks run on the worker thread.
     *
     * @param threadFactory makes the worker thread
     * @param tickDuration the tick length
     * @param unit the unit of {@code tickDuration}
     * @param ticksPerWheel the number of buckets, rounded up to a power of two
     * @param leakDetection whether to log a timer collected without {@link #stop()}
     * @param maxPendingTimeouts the most pending timeouts before {@code newTimeout} is refused
     *     with {@link java.util.concurrent.RejectedExecutionException}; 0 or less for no limit
     */
    public HashedWheelTimer(final ThreadFactory threadFactory, final long tickDuration, final TimeUnit unit,
            final int ticksPerWheel, final boolean leakDetection, final long maxPendingTimeouts) {
        this(Clock.SYSTEM, threadFactory, tickDuration, unit, ticksPerWheel, leakDetection, maxPendingTimeouts,
                null);
    }

    /**
     * Creates a timer.
     *
     * @param threadFactory makes the worker thread
     * @param tickDuration the tick length; below 1 ms it is raised to 1 ms, with a warning
     * @param unit the unit of {@code tickDuration}
     * @param ticksPerWheel the number of buckets, 1 to 2^30, rounded up to a power of two
     * @param leakDetection whether to log a timer collected without {@link #stop()}
     * @param maxPendingTimeouts the most pending timeouts before {@code newTimeout} is refused
     *     with {@link java.util.concurrent.RejectedExecutionException}; 0 or less for no limit
     * @param taskExecutor runs expired tasks, so a slow task does not delay other timeouts
     * @throws NullPointerException if {@code threadFactory}, {@code unit} or {@code taskExecutor} is null
     * @throws IllegalArgumentException if {@code tickDuration} is not positive, {@code ticksPerWheel}
     *     is outside 1 to 2^30, or the wheel's span overflows a long of nanoseconds
     */
    public HashedWheelTimer(final ThreadFactory threadFactory, final long tickDuration, final TimeUnit unit,
            final int ticksPerWheel, final boolean leakDetection, final long maxPendingTimeouts,
            final Executor taskExecutor) {
        this(Clock.SYSTEM, threadFactory, tickDuration, unit, ticksPerWheel, leakDetection, maxPendingTimeouts,
                Checks.notNull(taskExecutor, "taskExecutor"));
    }

    HashedWheelTimer(final Clock clock, final ThreadFactory threadFactory, final long tickDuration,
            final TimeUnit unit, final int ticksPerWheel, final boolean leakDetection, final long maxPendingTimeouts,
            final Executor taskExecutor) {
        this(checkedOptions(threadFactory, unit, tickDuration, ticksPerWheel).clock(clock)
                .leakDetection(leakDetection).maxPendingTimeouts(maxPendingTimeouts).taskExecutor(taskExecutor),
                tickDuration, unit);
    }

    /** The options of the Netty-style constructors, checked in Netty's order. */
    private static TimerOptions checkedOptions(final ThreadFactory threadFactory, final TimeUnit unit,
            final long tickDuration, final int ticksPerWheel) {
        Checks.notNull(threadFactory, "threadFactory");
        Checks.notNull(unit, "unit");
        Checks.positive(tickDuration, "tickDuration");
        Checks.inRange(ticksPerWheel, 1, MAX_TICKS_PER_WHEEL, "ticksPerWheel");
        return new TimerOptions(TimerOptions.Kind.HASHED, NAME).threadFactory(threadFactory).wheelSize(ticksPerWheel);
    }

    /**
     * The one constructor every path ends in: rounds the wheel up to a power of two, refuses a
     * span that overflows, raises a tick below 1 ms, and builds the engine.
     *
     * @param options checked options, the tick aside; adjusted here, so never a builder's own
     */
    private HashedWheelTimer(final TimerOptions options, final long tickDuration, final TimeUnit unit) {
        int ticksPerWheel = options.wheelSize();
        int wheelLength = ticksPerWheel == 1 ? 1 : Integer.highestOneBit(ticksPerWheel - 1) << 1;
        long tickNanos = unit.toNanos(tickDuration);
        if (tickNanos >= Long.MAX_VALUE / wheelLength) {
            throw new IllegalArgumentException(String.format(
                    "tickDuration: %d (expected: 0 < tickDuration in nanos < %d)",
                    tickDuration, Long.MAX_VALUE / wheelLength));
        }
        if (tickNanos < MILLISECOND_NANOS) {
            System.getLogger("io.tickwheel.HashedWheelTimer").log(System.Logger.Level.WARNING,
                    "Configured tickDuration {0} ns is smaller than 1 ms; using 1 ms.", tickNanos);
            tickNanos = MILLISECOND_NANOS;
        }
        this.core = new TimerCore(options.wheelSize(wheelLength).tickNanos(tickNanos));
        this.owner = core.bind(this);
        core.watch(this, options.leakDetection());
    }

    private static ThreadFactory defaultThreadFactory() {
        return DEFAULT_THREAD_FACTORY;
    }

    /**
     * Returns a builder with Netty's defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts the worker thread. Optional: the first {@link #newTimeout} starts it.
     *
     * @throws IllegalStateException if this timer was stopped
     */
    public void start() {
        core.start();
    }

    @Override
    public Timeout newTimeout(final TimerTask task, final long delay, final TimeUnit unit) {
        Checks.notNull(task, "task");
        Checks.notNull(unit, "unit");
        return core.schedule(owner, task, unit.toNanos(delay));
    }

    @Override
    public Set<Timeout> stop() {
        return core.stop();
    }

    @Override
    public long pendingTimeouts() {
        return core.pendingTimeouts();
    }

    /**
     * Returns a snapshot of this timer's statistics: counts, lateness and task time. Cheap (a
     * copy of about 15 KB), from any thread, and it adds no cost to {@code newTimeout}: see
     * {@link TimerStats}.
     *
     * @return the snapshot
     */
    public TimerStats stats() {
        return new TimerStats(core.stats());
    }

    TimerCore core() {
        return core;
    }

    /** What this timer's timeouts keep; the executor adapter schedules on {@link #core()} with it. */
    TimeoutOwner owner() {
        return owner;
    }

    /**
     * Builds a {@link HashedWheelTimer}; unset options keep Netty's defaults (tick 100 ms, 512 ticks
     * per wheel, leak detection on, no pending limit, tasks on the worker thread).
     *
     * <p>Threading: not thread-safe; confined by the caller building it.
     */
    public static final class Builder {
        private final TimerOptions options = new TimerOptions(TimerOptions.Kind.HASHED, NAME)
                .threadFactory(defaultThreadFactory())
                .tickNanos(TimeUnit.MILLISECONDS.toNanos(DEFAULT_TICK_MILLIS))
                .wheelSize(DEFAULT_TICKS_PER_WHEEL);

        Builder() {
        }

        /**
         * Sets the worker thread's factory.
         *
         * @param threadFactory the factory
         * @return this builder
         */
        public Builder threadFactory(final ThreadFactory threadFactory) {
            options.threadFactory(Checks.notNull(threadFactory, "threadFactory"));
            return this;
        }

        /**
         * Sets the tick length.
         *
         * @param tickDuration the tick length, positive
         * @return this builder
         */
        public Builder tickDuration(final Duration tickDuration) {
            Checks.notNull(tickDuration, "tickDuration");
            return tickDuration(HierarchicalWheelTimer.saturatedNanos(tickDuration), TimeUnit.NANOSECONDS);
        }

        /**
         * Sets the tick length.
         *
         * @param tickDuration the tick length, positive
         * @param unit its unit
         * @return this builder
         */
        public Builder tickDuration(final long tickDuration, final TimeUnit unit) {
            Checks.notNull(unit, "unit");
            options.tickNanos(Checks.positive(unit.toNanos(Checks.positive(tickDuration, "tickDuration")),
                    "tickDuration"));
            return this;
        }

        /**
         * Sets the number of buckets, rounded up to a power of two.
         *
         * @param ticksPerWheel 1 to 2^30
         * @return this builder
         */
        public Builder ticksPerWheel(final int ticksPerWheel) {
            options.wheelSize(Checks.inRange(ticksPerWheel, 1, MAX_TICKS_PER_WHEEL, "ticksPerWheel"));
            return this;
        }

        /**
         * Sets whether a timer collected without {@link HashedWheelTimer#stop()} is logged.
         *
         * @param leakDetection true to log leaks
         * @return this builder
         */
        public Builder leakDetection(final boolean leakDetection) {
            options.leakDetection(leakDetection);
            return this;
        }

        /**
         * Sets the pending limit.
         *
         * @param maxPendingTimeouts the most pending timeouts, or 0 or less for no limit
         * @return this builder
         */
        public Builder maxPendingTimeouts(final long maxPendingTimeouts) {
            options.maxPendingTimeouts(maxPendingTimeouts);
            return this;
        }

        /**
         * Sets how long a task may run before it is logged (once, at WARNING, with its name and
         * time) and counted in {@link TimerStats#slowTasks()}; default 100 ms. A slow task on the
         * worker thread delays every timeout due meanwhile.
         *
         * @param slowTaskThreshold the threshold, or zero to turn the check off
         * @return this builder
         */
        public Builder slowTaskThreshold(final Duration slowTaskThreshold) {
            options.slowTaskNanos(Checks.notNegativeNanos(slowTaskThreshold, "slowTaskThreshold"));
            return this;
        }

        /**
         * Sets the executor expired tasks are handed to, instead of running on the worker thread.
         *
         * @param taskExecutor the executor
         * @return this builder
         */
        public Builder taskExecutor(final Executor taskExecutor) {
            options.taskExecutor(Checks.notNull(taskExecutor, "taskExecutor"));
            return this;
        }

        /**
         * Builds the timer; its worker starts on the first {@code newTimeout}.
         *
         * @return a new timer
         */
        public HashedWheelTimer build() {
            return new HashedWheelTimer(options.copy(), options.tickNanos(), TimeUnit.NANOSECONDS);
        }
    }
}
