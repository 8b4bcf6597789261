package io.tickwheel.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The live tasks of a {@link ScheduledExecutorCore} and its run state: what shutdown, shutdownNow
 * and termination need.
 *
 * <h2>Lifecycle</h2>
 * <pre>
 *   RUNNING --shutdown--&gt; SHUTDOWN
 *   RUNNING | SHUTDOWN --shutdownNow--&gt; STOP
 *   SHUTDOWN | STOP --registry empty--&gt; TERMINATED      opens awaitTermination
 * </pre>
 * Each arrow is a CAS of {@code runState}, which only moves forward.
 *
 * <h2>Stripes</h2>
 * A task is added before its first timeout is armed and removed once it will never run again.
 * The tasks are kept in stripes, each an intrusive doubly linked list through the tasks with a
 * lock of its own, and a thread adds to the stripe its id picks (ids are handed out in creation
 * order, so the threads of a pool, created one after another, get different stripes up to the
 * stripe count): threads that schedule at once do not pass
 * one lock, one list's ends and each other's tasks between their cores. Two threads on one
 * executor cost about 270-290 CPU ns per schedule and cancel with one list, 100-120 with stripes
 * (docs/BENCHMARKS.md). A task remembers its stripe, so whichever thread removes it locks that one.
 * The sequence number that orders ties is the stripe's count with the stripe's index in its low
 * bits: unique, and in schedule order for the tasks of one thread. Between threads it follows the
 * stripes' counts, not the schedule order (a task one thread schedules after another thread's may
 * sort first); it only ever decides between due times equal to the nanosecond.
 *
 * <p>Adding checks RUNNING under its stripe's lock, and shutdown moves the state before it takes
 * any stripe's lock to copy it, so a task is either refused or in the copy. Termination needs
 * every stripe empty after the state moved: it is checked by shutdown after its copy, by the
 * removal that empties a stripe while the state is past RUNNING (the state is read under that
 * stripe's lock, so either shutdown's copy finds the stripe empty or the removal sees the moved
 * state), and by awaitTermination and isTerminated themselves, so that an Error cutting a check
 * short costs a waiter at most one spell. A check locks each stripe in turn; since no task can
 * join after the state moved, a stripe once seen empty stays empty, and when two removals empty
 * the last two stripes at once, the second to reach the other's lock sees it empty.
 *
 * <h2>The locks</h2>
 * Every schedule and every cancel take one, so they are built for the uncontended case: one CAS
 * of the stripe's lock word to take it and a release store to let it go, one atomic
 * instruction per critical section where a monitor costs two (entering and leaving are each a
 * CAS): 10 ns of the ~90 a schedule and a cancel cost together (docs/BENCHMARKS.md). A thread that
 * finds it taken queues on the stripe's monitor ({@link RegistryStripe}), so that one waiter at a time
 * spins on the CAS while the JVM parks the others; the spinning one parks in short spells once it
 * has spun for a while (the holder was descheduled inside its few field writes). No critical
 * section blocks, takes a monitor or another stripe's lock, so none can deadlock. Not reentrant:
 * no critical section calls out to code that could come back here.
 *
 * <h2>Errors in a caller's deep stack</h2>
 * Adding and removing run on callers' threads, at any depth, so a {@link StackOverflowError} can
 * strike at any call they make. A lock held by nobody would block every cancel, shutdown and the
 * timer's own {@code stop()} (whose cancelled timeouts leave the registry) for good, which is what
 * a {@code ReentrantLock} did: its {@code lock()} calls out after its CAS, and its {@code unlock()}
 * is a call. Here the CAS is the last thing taking a lock does (an overflow strikes before it,
 * with nothing taken, or not at all), and letting it go is inline in each critical section's
 * {@code finally}: the release store is a call in the interpreter, so if it overflows, its handler
 * lets go with a write of the volatile field, a bytecode that cannot (a helper method would not
 * do: calling it could overflow too). The handler catches {@link VirtualMachineError} only: the
 * store is the last step of its call chain, so such an Error came before it; an asynchronous
 * throwable ({@code Thread.stop}'s) could come after it, and letting go again then could free a
 * lock another thread had taken since. Inside a lock there is no call between the writes that
 * must happen together, so a throw leaves the list whole.
 *
 * <p>Threading: thread-safe. Each stripe's lock guards its list and count; {@code runState} is
 * volatile and moves by CAS. Taking a lock is a volatile CAS and letting it go a release store, so
 * each critical section sees every write of the one before it on that stripe.
 */
final class TaskRegistry {

    static final int RUNNING = 0;
    static final int SHUTDOWN = 1;
    static final int STOP = 2;
    static final int TERMINATED = 3;

    /** Low bits of a sequence number that hold the stripe's index: at most 16 stripes. */
    static final int STRIPE_BITS = 4;

    private static final VarHandle RUN_STATE;

    static {
        try {
            RUN_STATE = MethodHandles.lookup().findVarHandle(TaskRegistry.class, "runState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RegistryStripe[] stripes;
    private final int mask;
    /** Opened once terminated; waiters also check in spells. */
    private final CountDownLatch terminated = new CountDownLatch(1);
    /** Moves forward only, by CAS through {@code RUN_STATE}; read anywhere. */
    private volatile int runState;

    /** A registry with {@link #defaultStripes()} stripes. */
    TaskRegistry() {
        this(defaultStripes());
    }

    /**
     * A registry with {@code count} stripes.
     *
     * @param count a power of two, at most {@code 1 << STRIPE_BITS}
     */
    TaskRegistry(final int count) {
        if (count < 1 || Integer.bitCount(count) != 1 || count > 1 << STRIPE_BITS) {
            throw new IllegalArgumentException("stripes must be a power of two up to 16: " + count);
        }
        stripes = new RegistryStripe[count];
        for (int i = 0; i < count; i++) {
            stripes[i] = new RegistryStripe(i);
        }
        mask = count - 1;
    }

    /**
     * Stripes by default: as many as the timer's hand-off lanes ({@link NodeLanes#defaultCount()},
     * picked by thread id the same way, for the same reason), within what a sequence number's
     * {@link #STRIPE_BITS} can name.
     *
     * @return the count
     */
    static int defaultStripes() {
        return Math.min(NodeLanes.defaultCount(), 1 << STRIPE_BITS);
    }

    /** The run state: {@link #RUNNING}, {@link #SHUTDOWN}, {@link #STOP} or {@link #TERMINATED}. */
    int runState() {
        return runState;
    }

    /**
     * Adds a task to the calling thread's stripe and numbers it.
     *
     * @param task a task not yet added
     * @throws RejectedExecutionException if the executor is no longer running
     */
    void add(final ScheduledTask<?> task) {
        add(task, (int) Thread.currentThread().getId());
    }

    /**
     * Adds a task to the stripe {@code stripeHint} picks (masked) and numbers it.
     *
     * @param task a task not yet added
     * @param stripeHint any int; the stripe is its low bits
     * @throws RejectedExecutionException if the executor is no longer running
     */
    void add(final ScheduledTask<?> task, final int stripeHint) {
        RegistryStripe stripe = stripes[stripeHint & mask];
        boolean refused;
        boolean interrupt = stripe.lock();
        try {
            // Read under the lock: see the class comment (a task is refused or in shutdown's copy).
            refused = runState != RUNNING;
            if (!refused) {
                task.sequence = ++stripe.count << STRIPE_BITS | stripe.index;
                task.stripe = stripe.index + 1;
                if (stripe.last == null) {
                    stripe.first = task;
                } else {
                    stripe.last.next = task;
                    task.prev = stripe.last;
                }
                stripe.last = task;
            }
        } finally {
            try {
                RegistryStripe.LOCK.setRelease(stripe, 0);
            } catch (VirtualMachineError overflow) {
                stripe.lock = 0; // the store's call overflowed; a bytecode cannot (see the class comment)
            }
            if (interrupt) {
                Thread.currentThread().interrupt(); // cleared while it waited: see RegistryStripe.lock
            }
        }
        if (refused) {
            throw new RejectedExecutionException("the executor has been shut down");
        }
    }

    /**
     * Removes a task that will never run again and has no body running; idempotent. Terminates
     * the executor if that emptied the last stripe after shutdown.
     *
     * @param task the task
     */
    @SuppressWarnings("ReferenceEquality") // the registry links objects: identity is the point
    void remove(final ScheduledTask<?> task) {
        int index = task.stripe - 1;
        if (index < 0) {
            index = stripeHolding(task);
            if (index < 0) {
                return; // never added (its add threw)
            }
        }
        RegistryStripe stripe = stripes[index];
        boolean emptiedAfterShutdown = false;
        boolean interrupt = stripe.lock();
        try {
            // Field reads and writes only, no call: nothing here can overflow half-way.
            if (task.prev != null || stripe.first == task) { // else already removed
                if (task.prev == null) {
                    stripe.first = task.next;
                } else {
                    task.prev.next = task.next;
                }
                if (task.next == null) {
                    stripe.last = task.prev;
                } else {
                    task.next.prev = task.prev;
                }
                task.prev = null;
                task.next = null;
                emptiedAfterShutdown = stripe.first == null && runState != RUNNING;
            }
        } finally {
            try {
                RegistryStripe.LOCK.setRelease(stripe, 0);
            } catch (VirtualMachineError overflow) {
                stripe.lock = 0; // the store's call overflowed; a bytecode cannot (see the class comment)
            }
            if (interrupt) {
                Thread.currentThread().interrupt(); // cleared while it waited: see RegistryStripe.lock
            }
        }
        if (emptiedAfterShutdown) {
            terminateIfEmpty();
        }
    }

    /**
     * Finds the stripe of a task whose {@code stripe} this thread read as 0: never added, or handed
     * to this thread without a happens-before edge from its add (a future published through a data
     * race). Under each stripe's lock in turn, so the add's write is seen under the lock it was
     * made under.
     *
     * @return the index, or -1 if no stripe holds it
     */
    private int stripeHolding(final ScheduledTask<?> task) {
        for (RegistryStripe stripe : stripes) {
            boolean here;
            boolean interrupt = stripe.lock();
            try {
                here = task.stripe == stripe.index + 1;
            } finally {
                try {
                    RegistryStripe.LOCK.setRelease(stripe, 0);
                } catch (VirtualMachineError overflow) {
                    stripe.lock = 0; // the store's call overflowed; a bytecode cannot (see the class comment)
                }
                if (interrupt) {
                    Thread.currentThread().interrupt(); // cleared while it waited: see RegistryStripe.lock
                }
            }
            if (here) {
                return stripe.index;
            }
        }
        return -1;
    }

    /**
     * Moves to {@code target} if behind it, copies every stripe, and terminates if none held a task.
     *
     * @param target {@link #SHUTDOWN} or {@link #STOP}
     * @return the tasks registered once the state had moved
     */
    List<ScheduledTask<?>> advanceAndSnapshot(final int target) {
        int state = runState;
        while (state < target && !RUN_STATE.compareAndSet(this, state, target)) {
            state = runState;
        }
        List<ScheduledTask<?>> tasks = new ArrayList<>();
        for (RegistryStripe stripe : stripes) {
            boolean interrupt = stripe.lock();
            try {
                for (ScheduledTask<?> task = stripe.first; task != null; task = task.next) {
                    tasks.add(task); // an Error here (out of memory) leaves the list as it was
                }
            } finally {
                try {
                    RegistryStripe.LOCK.setRelease(stripe, 0);
                } catch (VirtualMachineError overflow) {
                    stripe.lock = 0; // the store's call overflowed; a bytecode cannot (see the class comment)
                }
                if (interrupt) {
                    Thread.currentThread().interrupt(); // cleared while it waited: see RegistryStripe.lock
                }
            }
        }
        terminateIfEmpty();
        return tasks;
    }

    /**
     * Whether terminated; after shutdown, checks the stripes first (see the class comment).
     *
     * @return true if terminated
     */
    boolean isTerminated() {
        int state = runState;
        if (state == RUNNING || state == TERMINATED) {
            return state == TERMINATED;
        }
        terminateIfEmpty();
        return runState == TERMINATED;
    }

    /** After shutdown: terminates if every stripe is empty; see the class comment. */
    private void terminateIfEmpty() {
        for (RegistryStripe stripe : stripes) {
            boolean empty;
            boolean interrupt = stripe.lock();
            try {
                empty = stripe.first == null;
            } finally {
                try {
                    RegistryStripe.LOCK.setRelease(stripe, 0);
                } catch (VirtualMachineError overflow) {
                    stripe.lock = 0; // the store's call overflowed; a bytecode cannot (see the class comment)
                }
                if (interrupt) {
                    Thread.currentThread().interrupt(); // cleared while it waited: see RegistryStripe.lock
                }
            }
            if (!empty) {
                return;
            }
        }
        int state = runState;
        while (state == SHUTDOWN || state == STOP) {
            if (RUN_STATE.compareAndSet(this, state, TERMINATED)) {
                terminated.countDown();
                return;
            }
            state = runState;
        }
    }

    /**
     * Waits until terminated, in spells (see the class comment).
     *
     * @param nanos the longest wait; zero or less looks once
     * @return true if terminated
     * @throws InterruptedException if interrupted while waiting
     */
    boolean awaitTermination(final long nanos) throws InterruptedException {
        if (nanos <= 0) {
            return isTerminated();
        }
        try {
            return SpellWait.timed(this::awaitSpell, nanos);
        } catch (TimeoutException notYet) {
            return false;
        } catch (ExecutionException impossible) {
            throw new IllegalStateException(impossible); // awaitSpell throws none
        }
    }

    /** One spell of {@link #awaitTermination}: true, or TimeoutException if still not terminated. */
    private boolean awaitSpell(final long nanos) throws InterruptedException, TimeoutException {
        // Checks before and after the wait, in case the check that should have terminated (or the
        // countDown that opens the latch) was cut short by an Error: the latch opens only after the
        // state became TERMINATED, and the last spell must not end on a stale answer.
        if (isTerminated() || terminated.await(nanos, TimeUnit.NANOSECONDS) || isTerminated()) {
            return true;
        }
        throw new TimeoutException();
    }
}
