package io.tickwheel.netty;

import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import io.tickwheel.Timers;
import java.util.Collections;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A tickwheel {@link io.tickwheel.Timer} behind Netty's {@link io.netty.util.Timer} interface, for
 * the libraries that take one: Lettuce ({@code ClientResources.builder().timer(...)}),
 * AsyncHttpClient ({@code setNettyTimer(...)}), and any code written against Netty's
 * {@code HashedWheelTimer}.
 *
 * <pre>{@code
 * ClientResources resources = ClientResources.builder().timer(NettyTimer.shared()).build();
 * }</pre>
 *
 * <p>The tickwheel timer's semantics carry over: a timeout never fires early, each one ends exactly
 * once (run, cancelled, or returned by {@link #stop()}), a task that throws is logged and harms
 * nothing else, and {@code newTimeout} throws {@link IllegalStateException} after {@code stop()}
 * and {@link java.util.concurrent.RejectedExecutionException} at the pending limit. The
 * {@link Timeout} handed back is the one passed to the task's {@code run}; its {@code timer()} is
 * this object and its {@code task()} the Netty task given to {@code newTimeout}.
 *
 * <p>Netty 4.2 added {@code TimerTask.cancelled(Timeout)}; on 4.2 it is called once when a timeout
 * is cancelled, by {@code cancel()} (on the cancelling thread) or by {@code stop()} (on the stopping
 * thread). On Netty 4.1, which has no such method, nothing is called. Both lines work: this class is
 * compiled against 4.1 and finds the 4.2 method at run time.
 *
 * <p>Threading: thread-safe; every method may be called from any thread. Tasks run on the wrapped
 * timer's worker thread, or on its task executor if it has one.
 */
public final class NettyTimer implements io.netty.util.Timer {

    /** Created on first use by the JVM's class initialization, which is lazy and thread-safe. */
    private static final class SharedHolder {
        static final NettyTimer SHARED = new NettyTimer(Timers.shared(), false);
    }

    private final io.tickwheel.Timer timer;
    /** False for {@link #shared()}: its {@code stop()} leaves the JVM-wide timer running. */
    private final boolean owned;
    /** Guards {@link #unmapped}. */
    private final Object unmappedLock = new Object();
    /**
     * The wrapped timer's pending set, when a {@link #stop()} that got it from the wrapped timer
     * failed while it built the views (a deep caller's StackOverflowError, an OutOfMemoryError):
     * the wrapped timer reports its set once, so the next {@code stop()} returns this one. Taken and
     * put back under the lock with no call in between, so no failure strikes there and no two
     * calls both return it.
     */
    private Set<io.tickwheel.Timeout> unmapped;

    private NettyTimer(final io.tickwheel.Timer timer, final boolean owned) {
        this.timer = timer;
        this.owned = owned;
    }

    /**
     * Returns a Netty timer backed by {@code timer}, which it owns: its {@link #stop()} stops
     * {@code timer}. Wrapping {@link Timers#shared()}, which cannot be stopped, returns
     * {@link #shared()}.
     *
     * @param timer the tickwheel timer that schedules and runs the timeouts
     * @return the adapter
     * @throws NullPointerException if {@code timer} is null
     */
    public static NettyTimer wrap(final io.tickwheel.Timer timer) {
        Objects.requireNonNull(timer, "timer");
        if (timer == Timers.shared()) {
            return shared();
        }
        return new NettyTimer(timer, true);
    }

    /**
     * Returns the JVM-wide Netty timer, backed by {@link Timers#shared()}. Its {@link #stop()}
     * does nothing and returns an empty set, so a library that stops the timer it was given when it
     * shuts down cannot stop it under others; cancel your own timeouts instead.
     *
     * @return the shared adapter (always the same instance)
     */
    public static NettyTimer shared() {
        return SharedHolder.SHARED;
    }

    /**
     * Schedules {@code task} to run once after {@code delay}, on the wrapped tickwheel timer.
     *
     * @param task the Netty task to run
     * @param delay the delay, in {@code unit}; zero or negative runs it on the next tick
     * @param unit the unit of {@code delay}
     * @return the handle, also passed to {@code task.run}
     * @throws NullPointerException if {@code task} or {@code unit} is null
     * @throws IllegalStateException if the timer was stopped
     * @throws java.util.concurrent.RejectedExecutionException if the wrapped timer's pending limit
     *     is reached
     */
    @Override
    public Timeout newTimeout(final TimerTask task, final long delay, final TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(unit, "unit");
        NettyTimeout timeout = new NettyTimeout(this, task);
        timeout.bind(timer.newTimeout(timeout, delay, unit));
        return timeout;
    }

    /**
     * Stops the wrapped timer and returns the Netty timeouts that were still pending, each now
     * cancelled (on Netty 4.2 their task's {@code cancelled} was called). Timeouts scheduled on the
     * wrapped timer directly, not through this adapter, are cancelled too but are not in the set.
     * A second call returns an empty set, unless the first one failed while it built the Netty
     * views (a deep caller's StackOverflowError, an OutOfMemoryError): the second then returns the
     * whole set. On {@link #shared()} this does nothing and returns an empty set.
     *
     * @return the pending Netty timeouts, now cancelled
     * @throws IllegalStateException if called from a task running on the timer's worker thread
     */
    @Override
    public Set<Timeout> stop() {
        if (!owned) {
            return Collections.emptySet();
        }
        Set<io.tickwheel.Timeout> pending;
        synchronized (unmappedLock) {
            pending = unmapped;
            unmapped = null;
        }
        if (pending == null) {
            pending = timer.stop();
        }
        try {
            return views(pending);
        } catch (Throwable t) {
            synchronized (unmappedLock) {
                unmapped = pending;
            }
            throw t;
        }
    }

    private static Set<Timeout> views(final Set<io.tickwheel.Timeout> pending) {
        Set<Timeout> views = new HashSet<>(pending.size() * 2);
        for (io.tickwheel.Timeout each : pending) {
            if (each.task() instanceof NettyTimeout) {
                NettyTimeout view = (NettyTimeout) each.task();
                view.bind(each);
                views.add(view);
            }
        }
        return Collections.unmodifiableSet(views);
    }

    /**
     * Returns the number of timeouts pending on the wrapped timer (for {@link #shared()}, on the
     * JVM-wide timer, whoever scheduled them), like Netty's {@code HashedWheelTimer.pendingTimeouts()}.
     *
     * @return the wrapped timer's pending count
     */
    public long pendingTimeouts() {
        return timer.pendingTimeouts();
    }

    @Override
    public String toString() {
        return "NettyTimer(" + (owned ? "owns " : "shared ") + timer.getClass().getSimpleName() + ")";
    }
}
