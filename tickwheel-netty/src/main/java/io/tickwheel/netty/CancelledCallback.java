package io.tickwheel.netty;

import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.UndeclaredThrowableException;

/**
 * Calls Netty 4.2's {@code TimerTask.cancelled(Timeout)} when the Netty on the class path has it.
 *
 * <p>The module compiles against Netty 4.1, whose {@code TimerTask} has no such method, so the call
 * is made through a method handle looked up once. On 4.1 the lookup fails and nothing is called: a
 * 4.1 task has no cancellation callback to honour.
 *
 * <p>Threading: immutable (a constant set by class initialization).
 */
final class CancelledCallback {

    /** {@code TimerTask.cancelled(Timeout)}, or null on a Netty without it (4.1). */
    private static final MethodHandle CANCELLED = find();

    private CancelledCallback() {
    }

    private static MethodHandle find() {
        try {
            return MethodHandles.publicLookup().findVirtual(TimerTask.class, "cancelled",
                    MethodType.methodType(void.class, Timeout.class));
        } catch (NoSuchMethodException | IllegalAccessException absent) {
            return null;
        }
    }

    /**
     * Returns whether the Netty on the class path has {@code TimerTask.cancelled} (4.2 and later).
     *
     * @return true if {@link #call} forwards
     */
    static boolean available() {
        return CANCELLED != null;
    }

    /** Calls {@code task.cancelled(timeout)} on Netty 4.2+; does nothing on 4.1. */
    static void call(final TimerTask task, final Timeout timeout) {
        if (CANCELLED == null) {
            return;
        }
        try {
            CANCELLED.invokeExact(task, timeout);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable checked) {
            // Netty declares no checked exception here; one can only be thrown sneakily.
            throw new UndeclaredThrowableException(checked);
        }
    }
}
