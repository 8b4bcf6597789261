package io.tickwheel;

import io.tickwheel.internal.Checks;
import io.tickwheel.internal.Clock;
import io.tickwheel.internal.HierarchicalWheel;
import io.tickwheel.internal.NamedThreadFactory;
import io.tickwheel.internal.TimerCore;
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

    static {
        CoreLookup.install();
    }

    private static final String NAME = "HierarchicalWheelTimer";

    private final TimerCore core;
    private final boolean stoppable;

    /** Creates a timer with the defaults: 1 ms tick, 64 buckets per level, daemon worker. */
    public HierarchicalWheelTimer() {
        this(new Builder(), Clock.SYSTEM, true);
    }

    HierarchicalWheelTimer(final Builder builder, final Clock clock, final boolean stoppable) {
        long tickNanos = builder.tickNanos;
        int bits = builder.wheelBits;
        this.stoppable = stoppable;
        this.core = new TimerCore(NAME, clock, origin -> new HierarchicalWheel(origin, tickNanos, bits),
                builder.threadFactory, builder.maxPendingTimeouts, builder.taskExecutor);
        core.watch(this, builder.leakDetection && stoppable);
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
        return core.schedule(this, task, unit.toNanos(delay));
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

    TimerCore core() {
        return core;
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
        private ThreadFactory threadFactory = new NamedThreadFactory("tickwheel-", true);
        private long tickNanos = TimeUnit.MILLISECONDS.toNanos(1);
        private int wheelBits = 6;
        private boolean leakDetection = true;
        private long maxPendingTimeouts = -1;
        private Executor taskExecutor;

        Builder() {
        }

        /**
         * Sets the worker thread's factory.
         *
         * @param threadFactory the factory
         * @return this builder
         */
        public Builder threadFactory(final ThreadFactory threadFactory) {
            this.threadFactory = Checks.notNull(threadFactory, "threadFactory");
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
            this.tickNanos = Checks.positive(saturatedNanos(tickDuration), "tickDuration");
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
            this.tickNanos = Checks.positive(unit.toNanos(Checks.positive(tickDuration, "tickDuration")),
                    "tickDuration");
            return this;
        }

        /**
         * Sets log2 of the buckets per level (default 6, that is 64).
         *
         * @param wheelBits 1 to 6
         * @return this builder
         */
        public Builder wheelBits(final int wheelBits) {
            this.wheelBits = Checks.inRange(wheelBits, 1, 6, "wheelBits");
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
            this.wheelBits = Integer.numberOfTrailingZeros(slotsPerLevel);
            return this;
        }

        /**
         * Sets whether a timer collected without {@link HierarchicalWheelTimer#stop()} is logged.
         *
         * @param leakDetection true to log leaks
         * @return this builder
         */
        public Builder leakDetection(final boolean leakDetection) {
            this.leakDetection = leakDetection;
            return this;
        }

        /**
         * Sets the pending limit.
         *
         * @param maxPendingTimeouts the most pending timeouts, or 0 or less for no limit
         * @return this builder
         */
        public Builder maxPendingTimeouts(final long maxPendingTimeouts) {
            this.maxPendingTimeouts = maxPendingTimeouts;
            return this;
        }

        /**
         * Sets the executor expired tasks are handed to, instead of running on the worker thread.
         *
         * @param taskExecutor the executor
         * @return this builder
         */
        public Builder taskExecutor(final Executor taskExecutor) {
            this.taskExecutor = Checks.notNull(taskExecutor, "taskExecutor");
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
