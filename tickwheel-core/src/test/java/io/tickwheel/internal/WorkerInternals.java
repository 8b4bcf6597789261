package io.tickwheel.internal;

import java.lang.reflect.Field;

/**
 * Reflection into a core's worker, for the tests that check its own bookkeeping (its wheel, its
 * count of dropped nodes): private fields, read by name. A field read from another thread than
 * the worker's is a snapshot with no ordering; tests that need an exact value read it from a task
 * on the worker.
 */
final class WorkerInternals {

    private WorkerInternals() {
    }

    /** The worker of {@code core}. */
    static Worker worker(final TimerCore core) throws ReflectiveOperationException {
        return (Worker) field(field(core, TimerCore.class, "lifecycle"), Lifecycle.class, "worker");
    }

    /** The wheel {@code worker} links into. */
    static TimingWheel wheel(final Worker worker) throws ReflectiveOperationException {
        return (TimingWheel) field(worker, Worker.class, "wheel");
    }

    /** The cancelled nodes {@code worker} dropped outside its wheel. */
    static long droppedHere(final Worker worker) throws ReflectiveOperationException {
        return (long) field(worker, Worker.class, "droppedHere");
    }

    private static Object field(final Object owner, final Class<?> type, final String name)
            throws ReflectiveOperationException {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(owner);
    }
}
