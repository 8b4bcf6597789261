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
 * tickwheel's recommended {@link Timer}: a hierarchical timing wheel (Varghese and Lauck's
 * scheme 7), whose levels work like a watch's second, minute and hour hands.
 *
 * <p>Compared with a hashed wheel ({@link HashedWheelTimer}, Netty's design) it does no per-tick
 * work for far-future timeouts and never wakes up when nothing is due: an idle timer, or one
 * holding millions of timeouts an hour out, costs no CPU. The default resolution is 1 ms and the
 * range of delays is unbounded. Same semantics as every {@link Timer}: never early, late by at
 * most about one tick, {@link #stop()} returns what was pending.
 *
 * <pre>{@code
 * Timer timer = HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build();
 * Timeout timeout = timer.newTimeout(t -> order.closeIfUnpaid(), Duration.ofMinutes(30));
 * }</pre>
 *
 * <p>Threading: thread-safe; tasks run on the worker thread (a daemon thread by default) unless a
 * task executor was given.
 */
public final class HierarchicalWheelTimer implements Timer {

    private static final String NAME = "HierarchicalWheelTimer";

    private final TimerCore core;
    /** What this timer's timeouts keep: this timer and its engine. */
    private final TimeoutOwner owner;
    private final boolean stoppable;

    /** Creates a timer with the defaults: 1 ms tick, 64 buckets per level, daemon worker. */
    public HierarchicalWheelTimer() {
        this(new Builder(), Clock.SYSTEM, true);
    }

    HierarchicalWheelTimer(final Builder builder, final Clock clock, final boolean stoppable) {
        TimerOptions options = builder.options.copy().clock(clock);
        this.stoppable = stoppable;
        this.core = new TimerCore(options);
        this.owner = core.bind(this);
        core.watch(this, options.leakDetection() && stoppable);
    }

    /**
     * Returns a builder with the defaults: 1 ms tick, 64 buckets per level, daemon worker thread,
     * leak detection on, no pending limit, tasks on the worker thread.
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

    /**
     * {@inheritDoc}
     *
     * @throws UnsupportedOperationException if this is the JVM-wide {@link Timers#shared()} timer
     */
    @Override
    public Set<Timeout> stop() {
        if (!stoppable) {
            throw new UnsupportedOperationException(
                    "Timers.shared() lives as long as the JVM and cannot be stopped; create your own "
                            + "HierarchicalWheelTimer if you need to stop one");
        }
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

    static long saturatedNanos(final Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLarge) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /**
     * Builds a {@link HierarchicalWheelTimer}.
     *
     * <p>Threading: not thread-safe; confined by the caller building it.
     */
    public static final class Builder {
        /** Shared by every builder, so timers' threads are numbered apart and tell the timers apart. */
        private static final ThreadFactory DEFAULT_THREAD_FACTORY = new NamedThreadFactory("tickwheel-", true);

        private final TimerOptions options = new TimerOptions(TimerOptions.Kind.HIERARCHICAL, NAME)
                .threadFactory(DEFAULT_THREAD_FACTORY)
                .tickNanos(TimeUnit.MILLISECONDS.toNanos(1))
                .wheelSize(6);

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
         * Sets the finest level's tick: the timer's resolution (default 1 ms).
         *
         * @param tickDuration the tick length, positive
         * @return this builder
         */
        public Builder tickDuration(final Duration tickDuration) {
            Checks.notNull(tickDuration, "tickDuration");
            options.tickNanos(Checks.positive(saturatedNanos(tickDuration), "tickDuration"));
            return this;
        }

        /**
         * Sets the finest level's tick: the timer's resolution (default 1 ms).
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
         * Sets log2 of the buckets per level (default 6, that is 64).
         *
         * @param wheelBits 1 to 6
         * @return this builder
         */
        public Builder wheelBits(final int wheelBits) {
            options.wheelSize(Checks.inRange(wheelBits, 1, 6, "wheelBits"));
            return this;
        }

        /**
         * Sets the buckets per level (default 64).
         *
         * @param slotsPerLevel a power of two from 2 to 64
         * @return this builder
         */
        public Builder slotsPerLevel(final int slotsPerLevel) {
            Checks.inRange(slotsPerLevel, 2, 64, "slotsPerLevel");
            if (Integer.bitCount(slotsPerLevel) != 1) {
                throw new IllegalArgumentException(
                        "slotsPerLevel: " + slotsPerLevel + " (expected: a power of two from 2 to 64)");
            }
            options.wheelSize(Integer.numberOfTrailingZeros(slotsPerLevel));
            return this;
        }

        /**
         * Sets whether a timer collected without {@link HierarchicalWheelTimer#stop()} is logged.
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
        public HierarchicalWheelTimer build() {
            return new HierarchicalWheelTimer(this, Clock.SYSTEM, true);
        }

        HierarchicalWheelTimer build(final Clock clock, final boolean stoppable) {
            return new HierarchicalWheelTimer(this, clock, stoppable);
        }
    }
}
