package io.tickwheel.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * Everything a timer is built from, filled by either public builder (and the hashed timer's
 * Netty-style constructors) and read once by {@link TimerCore}'s constructor, which copies what
 * it keeps: a builder may be reused after {@code build()} without affecting the timers it built.
 * Argument checks stay with the public API, which knows its parameter names.
 *
 * <p>Threading: not thread-safe; confined by the thread building the timer.
 */
public final class TimerOptions {

    /** The slow-task threshold unless a builder sets one: 100 ms. */
    public static final long DEFAULT_SLOW_TASK_NANOS = 100_000_000L;

    /** Which wheel the worker drives. */
    public enum Kind {
        /** {@link HashedWheel}: one ring of buckets; {@link #wheelSize} is its length. */
        HASHED,
        /** {@link HierarchicalWheel}: levels of buckets; {@link #wheelSize} is log2 of each level's. */
        HIERARCHICAL
    }

    private final Kind kind;
    private String name;
    private Clock clock = Clock.SYSTEM;
    private ThreadFactory threadFactory;
    private long tickNanos;
    private int wheelSize;
    private boolean leakDetection = true;
    private long maxPendingTimeouts = -1;
    private Executor taskExecutor;
    private long slowTaskNanos = DEFAULT_SLOW_TASK_NANOS;

    /**
     * Creates options for a timer of {@code kind}, named after its public class.
     *
     * @param kind the wheel
     * @param name the public timer's simple class name, for messages and the logger
     */
    public TimerOptions(final Kind kind, final String name) {
        this.kind = kind;
        this.name = name;
    }

    /**
     * Returns a copy, for a constructor that adjusts values without touching a builder's.
     *
     * @return a new options object with the same values
     */
    public TimerOptions copy() {
        TimerOptions copy = new TimerOptions(kind, name);
        copy.clock = clock;
        copy.threadFactory = threadFactory;
        copy.tickNanos = tickNanos;
        copy.wheelSize = wheelSize;
        copy.leakDetection = leakDetection;
        copy.maxPendingTimeouts = maxPendingTimeouts;
        copy.taskExecutor = taskExecutor;
        copy.slowTaskNanos = slowTaskNanos;
        return copy;
    }

    /**
     * Sets the name used in messages and the logger {@code io.tickwheel.<name>}.
     *
     * @param name the name
     * @return this
     */
    public TimerOptions name(final String name) {
        this.name = name;
        return this;
    }

    /**
     * Sets the time source.
     *
     * @param clock the clock
     * @return this
     */
    public TimerOptions clock(final Clock clock) {
        this.clock = clock;
        return this;
    }

    /**
     * Sets the worker thread's factory.
     *
     * @param threadFactory the factory
     * @return this
     */
    public TimerOptions threadFactory(final ThreadFactory threadFactory) {
        this.threadFactory = threadFactory;
        return this;
    }

    /**
     * Sets the tick length.
     *
     * @param tickNanos nanoseconds per tick, positive
     * @return this
     */
    public TimerOptions tickNanos(final long tickNanos) {
        this.tickNanos = tickNanos;
        return this;
    }

    /**
     * Sets the wheel's size: the bucket count (a power of two) of a hashed wheel, log2 of the
     * buckets per level of a hierarchical one.
     *
     * @param wheelSize the size
     * @return this
     */
    public TimerOptions wheelSize(final int wheelSize) {
        this.wheelSize = wheelSize;
        return this;
    }

    /**
     * Sets whether a timer collected without {@code stop()} is logged (it is stopped either way).
     *
     * @param leakDetection true to log
     * @return this
     */
    public TimerOptions leakDetection(final boolean leakDetection) {
        this.leakDetection = leakDetection;
        return this;
    }

    /**
     * Sets the pending limit.
     *
     * @param maxPendingTimeouts the most pending timeouts, or 0 or less for none
     * @return this
     */
    public TimerOptions maxPendingTimeouts(final long maxPendingTimeouts) {
        this.maxPendingTimeouts = maxPendingTimeouts;
        return this;
    }

    /**
     * Sets the executor expired tasks run on.
     *
     * @param taskExecutor the executor, or null for the worker thread
     * @return this
     */
    public TimerOptions taskExecutor(final Executor taskExecutor) {
        this.taskExecutor = taskExecutor;
        return this;
    }

    /**
     * Sets how long a task may run before it is logged and counted as slow.
     *
     * @param slowTaskNanos the threshold, or 0 for no slow-task detection
     * @return this
     */
    public TimerOptions slowTaskNanos(final long slowTaskNanos) {
        this.slowTaskNanos = slowTaskNanos;
        return this;
    }

    /**
     * Returns the wheel kind.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Returns the tick length.
     *
     * @return nanoseconds per tick
     */
    public long tickNanos() {
        return tickNanos;
    }

    /**
     * Returns the wheel size (see {@link #wheelSize(int)}).
     *
     * @return the size
     */
    public int wheelSize() {
        return wheelSize;
    }

    /**
     * Returns whether a leak is logged.
     *
     * @return true to log
     */
    public boolean leakDetection() {
        return leakDetection;
    }

    String name() {
        return name;
    }

    System.Logger logger() {
        return System.getLogger("io.tickwheel." + name);
    }

    Clock clock() {
        return clock;
    }

    ThreadFactory threadFactory() {
        return threadFactory;
    }

    long maxPendingTimeouts() {
        return maxPendingTimeouts;
    }

    Executor taskExecutor() {
        return taskExecutor;
    }

    long slowTaskNanos() {
        return slowTaskNanos;
    }

    @Override
    public String toString() {
        return "TimerOptions(kind=" + kind + ", name=" + name + ", clock=" + clock + ", threadFactory=" + threadFactory
                + ", tickNanos=" + tickNanos + ", wheelSize=" + wheelSize + ", leakDetection=" + leakDetection
                + ", maxPendingTimeouts=" + maxPendingTimeouts + ", taskExecutor=" + taskExecutor + ')';
    }

    /** Makes the wheel, its tick 0 starting at {@code originNanos}. */
    TimingWheel newWheel(final long originNanos) {
        return kind == Kind.HASHED
                ? new HashedWheel(originNanos, tickNanos, wheelSize)
                : new HierarchicalWheel(originNanos, tickNanos, wheelSize);
    }
}
