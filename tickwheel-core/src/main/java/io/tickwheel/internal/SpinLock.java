package io.tickwheel.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A non-reentrant mutual exclusion lock for critical sections of a few writes: one CAS to take
 * it and a release store to let it go, where a {@link java.util.concurrent.locks.ReentrantLock}
 * pays an atomic both ways. A waiter spins briefly, then parks for short spells,
 * so a holder descheduled inside its section, or one walking a long list (a shutdown copying
 * its tasks), costs the waiters little CPU. Not fair, and no condition: use it only where
 * every holder leaves quickly and never blocks inside.
 *
 * <p>Threading: thread-safe. Taking it is a CAS (a full fence); letting go is a release store,
 * so whatever the holder wrote is visible to the next thread whose CAS takes it.
 */
final class SpinLock {

    private static final int SPINS = 64;
    private static final long PARK_NANOS = 20_000;

    private static final VarHandle HELD;

    static {
        try {
            HELD = MethodHandles.lookup().findVarHandle(SpinLock.class, "held", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 1 while held; taken by CAS, released by a release store. */
    @SuppressWarnings("unused") // accessed through HELD
    private volatile int held;

    /** Takes the lock, waiting as the class comment says; an interrupt does not end the wait. */
    void lock() {
        if (!HELD.compareAndSet(this, 0, 1)) {
            contended();
        }
    }

    private void contended() {
        for (int attempt = 1; ; attempt++) {
            if ((int) HELD.getVolatile(this) == 0 && HELD.compareAndSet(this, 0, 1)) {
                return;
            }
            if (attempt < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(this, PARK_NANOS);
            }
        }
    }

    /** Lets the lock go; only its holder may call this. */
    void unlock() {
        HELD.setRelease(this, 0);
    }
}
