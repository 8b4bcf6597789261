package io.tickwheel.netty;

import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One timeout scheduled through {@link NettyTimer}: the Netty {@link Timeout} its caller and its task
 * see, and the tickwheel task the wrapped timer runs. One object plays both parts so that a
 * {@code newTimeout} allocates one adapter, not two.
 *
 * <p>The tickwheel handle ({@link #delegate}) is known only once the wrapped timer's
 * {@code newTimeout} returns, but the worker may run or cancel the timeout before that (a zero delay,
 * a concurrent {@code stop()}). So every path that hands this view to anyone binds the handle first:
 * {@link NettyTimer#newTimeout} before returning it, {@link #run} and {@link #cancelled} before
 * calling the Netty task, {@link NettyTimer#stop()} before returning it. The handle given to a
 * callback is the one {@code newTimeout} returned (a wrapping timer may pass its own, equally valid
 * one); the first bind wins.
 *
 * <p>Threading: thread-safe (via the volatile {@link #delegate}, written once by CAS from null:
 * the CAS's volatile write pairs with the volatile read in {@link #delegate()}, so a thread that
 * received this view from any of the binding paths sees the handle).
 */
final class NettyTimeout implements Timeout, io.tickwheel.TimerTask {

    private static final VarHandle DELEGATE;

    static {
        try {
            DELEGATE = MethodHandles.lookup().findVarHandle(NettyTimeout.class, "delegate",
                    io.tickwheel.Timeout.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NettyTimer timer;
    private final TimerTask task;
    /** The wrapped timer's handle: written once (CAS from null) by the first binder, read by any thread. */
    private volatile io.tickwheel.Timeout delegate;

    NettyTimeout(final NettyTimer timer, final TimerTask task) {
        this.timer = timer;
        this.task = task;
    }

    /** Records the wrapped timer's handle unless one is already recorded. */
    void bind(final io.tickwheel.Timeout handle) {
        DELEGATE.compareAndSet(this, (io.tickwheel.Timeout) null, handle);
    }

    private io.tickwheel.Timeout delegate() {
        return delegate;
    }

    // ---- io.tickwheel.TimerTask: called by the wrapped timer

    @Override
    public void run(final io.tickwheel.Timeout timeout) throws Exception {
        bind(timeout);
        task.run(this);
    }

    @Override
    public void cancelled(final io.tickwheel.Timeout timeout) {
        bind(timeout);
        CancelledCallback.call(task, this);
    }

    // ---- io.netty.util.Timeout: what the caller and the Netty task see

    @Override
    public NettyTimer timer() {
        return timer;
    }

    @Override
    public TimerTask task() {
        return task;
    }

    @Override
    public boolean isExpired() {
        return delegate().isExpired();
    }

    @Override
    public boolean isCancelled() {
        return delegate().isCancelled();
    }

    @Override
    public boolean cancel() {
        return delegate().cancel();
    }

    /** The state and the Netty task; never the wrapped handle's text, which prints this task. */
    @Override
    public String toString() {
        io.tickwheel.Timeout handle = delegate();
        String state = handle == null ? "scheduling"
                : handle.isCancelled() ? "cancelled" : handle.isExpired() ? "expired" : "pending";
        return "NettyTimeout(" + state + ", task: " + task + ")";
    }
}
