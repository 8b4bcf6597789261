package io.tickwheel.internal;

import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;

/**
 * The child JVM of {@link RegistryReleaseOverflowTest}: runs each of {@link TaskRegistry}'s critical
 * sections at every depth of a thread's stack, from the bottom up, and checks afterwards that no
 * stripe's lock was left held.
 *
 * <p>The parent runs it with only {@link RegistryStripe#lock()} compiled. Compiled, taking a lock
 * is one small frame and an intrinsic CAS; the release store, in an interpreted critical section,
 * is a chain of interpreted calls deeper than that. So some depth has room to take a lock but not
 * to let it go by the store, which is the overflow the release's handler exists for. With the
 * caller compiled as well (mixed mode, usually) the store is intrinsic too, and fully interpreted
 * the CAS's chain is deeper than the store's: in neither does a sweep reach the handler.
 *
 * <p>Prints {@code ok <sweeps> <overflows>} and exits 0, or prints what it found and exits 1 (a
 * lock left held) or 2 (a sweep never finished: a critical section waits for a lock nobody holds).
 *
 * <p>Threading: the sweeps run one at a time, each on a fresh thread.
 */
final class RegistryReleaseOverflowChild {

    private static final Callable<Object> BODY = () -> null;
    private static final ScheduledTask.Host HOST = new OrderOnlyHost(0);
    private static final long SWEEP_TIMEOUT_MILLIS = 5_000;

    /** Add, remove, a removal's search of every stripe, and shutdown's copy and termination check. */
    private static TaskRegistry running;
    /** Shut down with a task still in it: each copy and each termination check locks every stripe. */
    private static TaskRegistry shutDown;
    /** A task never added: removing it searches every stripe under its lock. */
    private static ScheduledTask<Object> neverAdded;
    private static final int SECTIONS = 6;
    private static int overflows;
    /** What {@link #attempt()} runs: set before each sweep's thread starts. */
    private static int section;

    private RegistryReleaseOverflowChild() {
    }

    /**
     * Runs the sweeps.
     *
     * @param args the number of sweeps
     * @throws Exception if interrupted
     */
    public static void main(final String[] args) throws Exception {
        int sweeps = Integer.parseInt(args[0]);
        running = new TaskRegistry(2);
        shutDown = new TaskRegistry(2);
        shutDown.add(new ScheduledTask<>(HOST, BODY, 0, 0), 1);
        shutDown.advanceAndSnapshot(TaskRegistry.SHUTDOWN);
        neverAdded = new ScheduledTask<>(HOST, BODY, 0, 0);
        // Enough calls for lock() to be compiled (the parent passes -Xbatch, so it is by the end).
        for (int i = 0; i < 30_000; i++) {
            section = i % SECTIONS;
            attempt();
        }
        int before = overflows;
        for (int sweep = 0; sweep < sweeps; sweep++) {
            section = sweep % SECTIONS;
            Thread thread = new Thread(RegistryReleaseOverflowChild::deeper, "sweep-" + sweep);
            thread.setDaemon(true);
            thread.start();
            thread.join(SWEEP_TIMEOUT_MILLIS);
            if (thread.isAlive()) {
                System.out.println("wedged in sweep " + sweep + " (section " + section + "): " + describe(thread));
                System.exit(2);
            }
            String held = heldLocks();
            if (!held.isEmpty()) {
                System.out.println("lock left held after sweep " + sweep + " (section " + section + "):" + held);
                System.exit(1);
            }
        }
        System.out.println("ok " + sweeps + " " + (overflows - before));
    }

    /**
     * Recurses until the stack overflows, then, on the way back up, runs {@link #attempt()} in each
     * frame's handler: each frame up has one frame's worth more stack, until an attempt succeeds.
     */
    @SuppressWarnings("InfiniteRecursion") // reason: it recurses until the stack overflows, on purpose
    private static void deeper() {
        try {
            deeper();
        } catch (StackOverflowError overflow) {
            overflows++;
            attempt();
        }
    }

    /**
     * One critical section (chosen by {@link #section}); an overflow anywhere ends it, and the
     * frame above tries again. The sections go in sweeps of their own, because an earlier one's
     * deeper calls (a refusal builds an exception) would keep a later one from its edge.
     */
    private static void attempt() {
        ScheduledTask<Object> task = new ScheduledTask<>(HOST, BODY, 0, 0);
        switch (section) {
            case 0 -> running.add(task, 0);
            case 1 -> {
                running.add(task, 0);
                running.remove(task);
            }
            case 2 -> running.remove(neverAdded);
            case 3 -> shutDown.advanceAndSnapshot(TaskRegistry.SHUTDOWN);
            case 4 -> shutDown.isTerminated();
            default -> {
                try {
                    shutDown.add(task, 0);
                } catch (RejectedExecutionException expected) {
                    // refused under the lock, after letting it go
                }
            }
        }
    }

    private static String heldLocks() throws ReflectiveOperationException {
        StringBuilder held = new StringBuilder();
        for (TaskRegistry registry : new TaskRegistry[] {running, shutDown}) {
            java.lang.reflect.Field field = TaskRegistry.class.getDeclaredField("stripes");
            field.setAccessible(true);
            for (RegistryStripe stripe : (RegistryStripe[]) field.get(registry)) {
                if ((int) RegistryStripe.LOCK.getVolatile(stripe) != 0) {
                    held.append(registry == running ? " running" : " shutDown").append(" stripe ").append(stripe.index);
                }
            }
        }
        return held.toString();
    }

    private static String describe(final Thread thread) {
        StringBuilder trace = new StringBuilder(thread.getState().toString());
        StackTraceElement[] frames = thread.getStackTrace();
        for (int i = 0; i < Math.min(6, frames.length); i++) {
            trace.append(" at ").append(frames[i]);
        }
        return trace.toString();
    }
}
