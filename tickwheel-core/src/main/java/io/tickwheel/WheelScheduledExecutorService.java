package io.tickwheel;

import io.tickwheel.internal.Checks;
import io.tickwheel.internal.ScheduledExecutorCore;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link ScheduledExecutorService} whose delays live on a {@link Timer} and whose task bodies
 * run on an {@link ExecutorService} of your choice: swap it in wherever code takes a
 * {@code ScheduledExecutorService} (a {@code ScheduledThreadPoolExecutor}, typically) to get the
 * wheel's cheap schedule and cancel.
 *
 * <pre>{@code
 * ScheduledExecutorService ses = new WheelScheduledExecutorService(Timers.shared(), workers);
 * ScheduledFuture<?> f = ses.schedule(this::expire, 30, TimeUnit.SECONDS);
 * f.cancel(false); // cancels the timeout: the task is not kept for 30 seconds
 * }</pre>
 *
 * <h2>Contract</h2>
 * It honours the {@code ScheduledExecutorService} contract as the JDK documents it, with the
 * {@code ScheduledThreadPoolExecutor} defaults where the JDK leaves a choice:
 * <ul>
 *   <li>A task never runs before its delay; it runs on the first timer tick at or after it, so
 *       lateness is the timer's (one tick plus scheduling noise). A zero or negative delay, and
 *       {@code execute}/{@code submit}, hand the task to the workers at once, without a tick.
 *   <li>Fixed rate: run <i>k</i> is due at {@code initialDelay + k * period} from the original
 *       start, so lateness never accumulates. A run that overruns delays the next, which starts
 *       on the next tick after it ends; runs of one task never overlap. Fixed delay: the next run
 *       is due {@code delay} after the previous one ended.
 *   <li>An exception from a periodic task ends its schedule and is thrown (wrapped in an
 *       {@link ExecutionException}) by its future's {@code get()}. As in the JDK's executor, a
 *       task given to {@code execute} is wrapped in a future too, so its exception is not reported
 *       anywhere: use {@code submit} and {@code get} to see it.
 *   <li>{@code cancel} on a returned future cancels its timeout at once, so the task is not kept
 *       until its deadline (the timer discards cancelled timeouts as it goes).
 *   <li>{@link #shutdown()}: new tasks are rejected; pending one-shot tasks still run unless
 *       cancelled; periodic tasks are cancelled (a running one finishes its run first).
 *   <li>{@link #shutdownNow()}: returns every task that had not started (periodic ones waiting
 *       for their next run included), after cancelling them so their futures are final (the JDK
 *       leaves them pending); interrupts running bodies and clears that interrupt when the body
 *       ends, since the worker thread belongs to the pool, not to this executor.
 *   <li>Terminated once shut down and every task has finished, been cancelled, or failed, with
 *       no body running.
 * </ul>
 * If the timer is stopped under it, pending tasks fail with a {@link RejectedExecutionException}
 * (through their futures) and new ones are rejected; if the workers reject a due task, its
 * future fails with that exception. Delays and periods beyond about 146 years are clamped.
 *
 * <h2>Ownership</h2>
 * This executor owns neither the timer nor the workers: {@code shutdown}, {@code shutdownNow}
 * and termination concern only the tasks scheduled through it, so one timer and one pool can
 * serve many executors. Stop the timer and shut down the workers yourself, after this executor
 * has terminated. Give it workers that run tasks on their own threads: one that runs them in
 * the submitting thread (a caller-runs policy) would run them on the timer's thread.
 *
 * <p>Threading: thread-safe; every method may be called from any thread, including from tasks.
 */
public final class WheelScheduledExecutorService implements ScheduledExecutorService {

    private final ScheduledExecutorCore core;

    /**
     * Creates an executor that keeps its delays on {@code timer} and runs task bodies on
     * {@code workers}. It owns neither (see the class description).
     *
     * @param timer the timer for the delays; {@link Timers#shared()} is a good default
     * @param workers where task bodies run
     * @throws NullPointerException if {@code timer} or {@code workers} is null
     */
    public WheelScheduledExecutorService(final Timer timer, final ExecutorService workers) {
        Checks.notNull(timer, "timer");
        Checks.notNull(workers, "workers");
        // On our own timers, schedule on the engine directly: one clock reading dates both the
        // future and its timeout (see ScheduledExecutorCore).
        if (timer instanceof HierarchicalWheelTimer hierarchical) {
            core = new ScheduledExecutorCore(timer, workers, hierarchical.core(), hierarchical.owner());
        } else if (timer instanceof HashedWheelTimer hashed) {
            core = new ScheduledExecutorCore(timer, workers, hashed.core(), hashed.owner());
        } else {
            core = new ScheduledExecutorCore(timer, workers);
        }
    }

    @Override
    public ScheduledFuture<?> schedule(final Runnable command, final long delay, final TimeUnit unit) {
        Checks.notNull(command, "command");
        return core.schedule(Executors.callable(command), Checks.notNull(unit, "unit").toNanos(delay), 0);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(final Callable<V> callable, final long delay, final TimeUnit unit) {
        Checks.notNull(callable, "callable");
        return core.schedule(callable, Checks.notNull(unit, "unit").toNanos(delay), 0);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(final Runnable command, final long initialDelay, final long period,
            final TimeUnit unit) {
        Checks.notNull(command, "command");
        Checks.notNull(unit, "unit");
        long periodNanos = unit.toNanos(Checks.positive(period, "period"));
        return core.schedule(Executors.callable(command), unit.toNanos(initialDelay), periodNanos);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(final Runnable command, final long initialDelay, final long delay,
            final TimeUnit unit) {
        Checks.notNull(command, "command");
        Checks.notNull(unit, "unit");
        long delayNanos = unit.toNanos(Checks.positive(delay, "delay"));
        return core.schedule(Executors.callable(command), unit.toNanos(initialDelay), -delayNanos);
    }

    @Override
    public void execute(final Runnable command) {
        core.execute(Checks.notNull(command, "command"));
    }

    @Override
    public Future<?> submit(final Runnable task) {
        return core.submit(Checks.notNull(task, "task"));
    }

    @Override
    public <T> Future<T> submit(final Runnable task, final T result) {
        return core.submit(Checks.notNull(task, "task"), result);
    }

    @Override
    public <T> Future<T> submit(final Callable<T> task) {
        return core.submit(Checks.notNull(task, "task"));
    }

    @Override
    public <T> List<Future<T>> invokeAll(final Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return core.invokeAll(checkTasks(tasks));
    }

    @Override
    public <T> List<Future<T>> invokeAll(final Collection<? extends Callable<T>> tasks, final long timeout,
            final TimeUnit unit) throws InterruptedException {
        return core.invokeAll(checkTasks(tasks), timeout, Checks.notNull(unit, "unit"));
    }

    @Override
    public <T> T invokeAny(final Collection<? extends Callable<T>> tasks)
            throws InterruptedException, ExecutionException {
        return core.invokeAny(checkNotEmpty(checkTasks(tasks)));
    }

    @Override
    public <T> T invokeAny(final Collection<? extends Callable<T>> tasks, final long timeout, final TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return core.invokeAny(checkNotEmpty(checkTasks(tasks)), timeout, Checks.notNull(unit, "unit"));
    }

    /** The JDK's own check throws a bare NullPointerException; this one names what was null. */
    private static <C extends Collection<? extends Callable<?>>> C checkTasks(final C tasks) {
        Checks.notNull(tasks, "tasks");
        for (Callable<?> task : tasks) {
            Checks.notNull(task, "tasks element");
        }
        return tasks;
    }

    /** invokeAny has nothing to return from no tasks; the JDK says so with a bare IllegalArgumentException. */
    private static <C extends Collection<?>> C checkNotEmpty(final C tasks) {
        if (tasks.isEmpty()) {
            throw new IllegalArgumentException("tasks: empty (expected: at least one task)");
        }
        return tasks;
    }

    /**
     * Starts an orderly shutdown: new tasks are rejected, pending one-shot tasks still run,
     * periodic tasks are cancelled. Does not wait (see {@link #awaitTermination}), and does not
     * shut down the workers or stop the timer.
     */
    @Override
    public void shutdown() {
        core.shutdown();
    }

    /**
     * Cancels every task that has not started and returns them; interrupts running bodies.
     * Does not wait, and does not shut down the workers or stop the timer.
     *
     * @return the tasks that never started, each now cancelled
     */
    @Override
    public List<Runnable> shutdownNow() {
        return core.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return core.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return core.isTerminated();
    }

    @Override
    public boolean awaitTermination(final long timeout, final TimeUnit unit) throws InterruptedException {
        return core.awaitTermination(timeout, Checks.notNull(unit, "unit"));
    }

    @Override
    public String toString() {
        return core.toString();
    }
}
