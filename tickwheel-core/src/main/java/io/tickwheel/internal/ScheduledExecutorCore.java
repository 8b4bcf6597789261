package io.tickwheel.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine behind {@code WheelScheduledExecutorService}: puts each task's due time on a
 * {@link Timer}, hands due tasks to the workers, and keeps the registry of live tasks that
 * shutdown, shutdownNow and termination need. It owns neither the timer nor the workers.
 *
 * <p>Its {@link TaskRegistry} holds the live tasks and the run state (RUNNING, SHUTDOWN, STOP,
 * TERMINATED); a task is registered before its first timeout is armed and leaves the registry
 * exactly once (see {@link ScheduledTask}).
 *
 * <h2>Errors in a caller's deep stack</h2>
 * Schedule and cancel run on callers' threads, at any depth, so a {@link StackOverflowError} can
 * strike at any call they make; the registry's lock is built so that such an Error never leaves it
 * held (see {@link TaskRegistry}), and a schedule that throws abandons its task (see
 * {@link #schedule}).
 *
 * <p>{@link AbstractExecutorService} supplies invokeAll and invokeAny on top of
 * {@link #execute(Runnable)}.
 *
 * <p>Threading: thread-safe (the registry guards its own state; the other fields are final).
 */
public final class ScheduledExecutorCore extends AbstractExecutorService implements ScheduledTask.Host {

    /**
     * The longest delay or period kept exactly (about 146 years); longer ones are clamped to it
     * so that due times stay comparable by difference, as the JDK's executor does.
     */
    static final long MAX_DELAY_NANOS = Long.MAX_VALUE >> 1;

    /** Numbers executors once each, for {@link #ordinal()}. */
    private static final AtomicLong ORDINALS = new AtomicLong();

    private final Timer timer;
    /**
     * The engine behind {@code timer} when it is one of ours on the system clock, else null:
     * scheduling on it directly lets a task's due time and its timeout's deadline come from one
     * clock reading.
     */
    private final TimerCore direct;
    private final TimeoutOwner owner;
    private final Executor workers;
    private final TaskRegistry registry;
    private final long ordinal = ORDINALS.getAndIncrement();

    /**
     * Creates an engine; the caller has checked both arguments.
     *
     * @param timer the timer that holds the due times
     * @param workers the executor that runs the task bodies
     */
    public ScheduledExecutorCore(final Timer timer, final Executor workers) {
        this(timer, workers, null, null);
    }

    /**
     * Creates an engine on one of our own timers, given its engine and owner; the caller has
     * checked every argument. On a timer whose clock is not {@link System#nanoTime()}, it
     * schedules through {@code timer} as the two-argument constructor does.
     *
     * @param timer the timer that holds the due times
     * @param workers the executor that runs the task bodies
     * @param timerCore the engine behind {@code timer}
     * @param timerOwner what {@code timer}'s timeouts keep
     */
    public ScheduledExecutorCore(final Timer timer, final Executor workers, final TimerCore timerCore,
            final TimeoutOwner timerOwner) {
        this(timer, workers, timerCore, timerOwner, TaskRegistry.defaultStripes());
    }

    /**
     * As the four-argument constructor, with the registry's stripe count given (tests and stress
     * tests use 1, so that every thread contends for one lock).
     */
    ScheduledExecutorCore(final Timer timer, final Executor workers, final TimerCore timerCore,
            final TimeoutOwner timerOwner, final int registryStripes) {
        this.registry = new TaskRegistry(registryStripes);
        this.timer = timer;
        this.workers = workers;
        boolean usable = timerCore != null && timerOwner != null && timerCore.onSystemClock();
        this.direct = usable ? timerCore : null;
        this.owner = usable ? timerOwner : null;
    }

    @Override
    public long ordinal() {
        return ordinal;
    }

    @Override
    public Timeout newTimeout(final ScheduledTask<?> task, final long nowNanos, final long delayNanos) {
        if (direct != null) {
            return direct.schedule(owner, task, nowNanos, delayNanos);
        }
        return timer.newTimeout(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Schedules {@code callable}; the caller has checked every argument.
     *
     * @param <V> the result type
     * @param callable the body
     * @param delayNanos the initial delay; zero or less hands it to the workers now
     * @param periodNanos 0 for one-shot, &gt; 0 fixed rate, &lt; 0 fixed delay of its negation
     * @return the task, which is its own future
     * @throws RejectedExecutionException after shutdown, or if the timer or workers refuse it
     */
    public <V> ScheduledTask<V> schedule(final Callable<V> callable, final long delayNanos, final long periodNanos) {
        long delay = Math.min(delayNanos, MAX_DELAY_NANOS);
        long period = Math.max(-MAX_DELAY_NANOS, Math.min(periodNanos, MAX_DELAY_NANOS));
        long now = System.nanoTime(); // the timer's clock too when direct != null: one reading for both
        ScheduledTask<V> task = new ScheduledTask<>(this, callable, now + Math.max(delay, 0), period);
        try {
            // Inside the try: add can throw after it linked the task (handing back an interrupt its
            // wait cleared is a call, which can overflow), and the task must then leave again.
            registry.add(task);
            if (delay <= 0) {
                dispatch(task, true); // no tick to wait for: a zero delay runs now, as in the JDK
            } else {
                task.arm(now, delay);
            }
        } catch (Throwable t) {
            // Refused, or an Error anywhere on the way (a deep caller's stack overflow, say, maybe
            // after the timeout was armed): the caller never gets the task, so it must not stay
            // registered (it would keep the executor from terminating), and it does not run unless
            // it fell due before we got here (docs/FAULTS.md). The mark is a
            // field write, which cannot fail; abandon() is a call, which at the stack's edge can, and
            // then the mark has the timer's callback, the workers and shutdown finish the job.
            task.abandoned = true;
            try {
                task.abandon();
            } catch (Throwable again) {
                // the same Error again (the stack is as deep as it was): the mark finishes the job
            }
            throw t;
        }
        return task;
    }

    /**
     * Hands a due task to the workers.
     *
     * @param task the task
     * @param throwOnReject true on a caller's thread (rejection is thrown to it); false on the
     *     timer's thread, where there is no caller, so a rejection fails the task's future
     */
    @Override
    public void dispatch(final ScheduledTask<?> task, final boolean throwOnReject) {
        if (task.abandoned) {
            task.abandon(); // its schedule call threw after arming it
            return;
        }
        if (!task.claimDispatch()) {
            return; // shutdownNow claimed it first
        }
        try {
            workers.execute(task);
        } catch (Throwable t) {
            // An Error too (a pool that cannot start a thread throws OutOfMemoryError). Unless the
            // workers took the task before they threw and its body has started, it never will (its
            // run finds it DEAD), so its future fails and it leaves the registry; a body that started
            // is settled by its run's end, and the executor must not look terminated meanwhile.
            RejectedExecutionException rejected = t instanceof RejectedExecutionException r
                    ? r
                    : new RejectedExecutionException("the workers refused the task", t);
            if (task.claimUnstartedDispatch()) {
                task.reject(rejected);
                untrack(task);
            }
            if (throwOnReject) {
                if (t instanceof Error e) {
                    throw e; // the caller's own thread: an Error stays an Error
                }
                throw rejected;
            }
        }
    }

    /**
     * Removes a task that will never run again and has no body running; idempotent.
     *
     * @param task the task
     */
    @Override
    public void untrack(final ScheduledTask<?> task) {
        registry.remove(task);
    }

    @Override
    public void shutdown() {
        // Cancelled outside the registry's lock: cancel calls back into untrack and the timer.
        for (ScheduledTask<?> task : registry.advanceAndSnapshot(TaskRegistry.SHUTDOWN)) {
            if (task.abandoned) {
                task.abandon();
            } else if (task.isPeriodic()) {
                task.cancel(false); // a running one finishes its run, then does not re-arm
            }
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> neverStarted = new ArrayList<>();
        for (ScheduledTask<?> task : registry.advanceAndSnapshot(TaskRegistry.STOP)) {
            if (task.abandoned) {
                task.abandon(); // nobody holds it: not one of the tasks to hand back
            } else if (task.claimNeverStarted()) {
                if (task.cancel(false)) {
                    neverStarted.add(task);
                }
            } else {
                if (task.isPeriodic()) {
                    task.cancel(false);
                }
                task.interruptRun();
            }
        }
        return neverStarted;
    }

    @Override
    public boolean isShutdown() {
        return registry.runState() != TaskRegistry.RUNNING;
    }

    @Override
    public boolean isTerminated() {
        return registry.isTerminated();
    }

    @Override
    public boolean awaitTermination(final long timeout, final TimeUnit unit) throws InterruptedException {
        return registry.awaitTermination(unit.toNanos(timeout));
    }

    /** As in the JDK's executor, a body's exception stays in the future that nobody holds. */
    @Override
    @SuppressWarnings("FutureReturnValueIgnored")
    public void execute(final Runnable command) {
        schedule(Executors.callable(command), 0, 0);
    }

    @Override
    public Future<?> submit(final Runnable task) {
        return schedule(Executors.callable(task), 0, 0);
    }

    @Override
    public <T> Future<T> submit(final Runnable task, final T result) {
        return schedule(Executors.callable(task, result), 0, 0);
    }

    @Override
    public <T> Future<T> submit(final Callable<T> task) {
        return schedule(task, 0, 0);
    }

    @Override
    public String toString() {
        String[] names = {"Running", "Shutting down", "Stopping", "Terminated"};
        return "WheelScheduledExecutorService[" + names[registry.runState()] + ", timer = " + timer + "]";
    }
}
