package io.tickwheel.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/** Cache lines before a stripe's fields, so that two stripes' lock words never share one. */
@SuppressWarnings("unused") // padding
class RegistryStripePadding {
    private long p01;
    private long p02;
    private long p03;
    private long p04;
    private long p05;
    private long p06;
    private long p07;
    private long p08;
}

/** One stripe's fields; see {@link RegistryStripe}. */
class RegistryStripeFields extends RegistryStripePadding {
    /**
     * 1 while held. Taken by CAS (through {@link RegistryStripe#LOCK}); let go by a release store,
     * or by a write of this volatile field where that store's call overflowed.
     */
    volatile int lock;
    /** The stripe's list and the count its sequence numbers come from; guarded by {@code lock}. */
    ScheduledTask<?> first;
    ScheduledTask<?> last;
    long count;
    /** Where the stripe sits in its registry; its sequence numbers' low bits. */
    final int index;
    /** What threads that found the lock taken queue on; guards nothing else. */
    final Object waiters = new Object();

    RegistryStripeFields(final int index) {
        this.index = index;
    }
}

/**
 * One stripe of a {@link TaskRegistry}: a list of tasks and the lock that guards it, padded on both
 * sides so that stripes taken by threads on different cores do not share a cache line. How the
 * lock is taken and let go, and why, is in {@link TaskRegistry}'s class comment; the critical
 * sections live there, because letting go must be inline in each of them.
 *
 * <p>Threading: {@link #lock()} from any thread; the fields under the lock.
 */
@SuppressWarnings("unused") // padding
final class RegistryStripe extends RegistryStripeFields {

    /** CAS attempts the queued waiter makes (each after a spin-wait hint) before it parks in spells. */
    private static final int SPINS = 512;
    /** How long the queued waiter parks between CAS attempts once spinning did not get the lock. */
    private static final long PARK_NANOS = 20_000;

    /** The lock word's handle: CAS to take, {@code setRelease(stripe, 0)} to let go. */
    static final VarHandle LOCK;

    static {
        try {
            LOCK = MethodHandles.lookup().findVarHandle(RegistryStripeFields.class, "lock", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private long p10;
    private long p11;
    private long p12;
    private long p13;
    private long p14;
    private long p15;
    private long p16;
    private long p17;

    RegistryStripe(final int index) {
        super(index);
    }

    /**
     * Takes the lock. The CAS is the last thing this does on the way in: an Error (a deep caller's
     * stack overflow) strikes before it, with nothing taken, or not at all.
     *
     * @return true if waiting cleared this thread's interrupt status: the caller sets it again once
     *     it has let the lock go (setting it here would be a call after the CAS)
     */
    boolean lock() {
        if (LOCK.compareAndSet(this, 0, 1)) {
            return false;
        }
        return lockContended();
    }

    /**
     * Waits for the lock in the {@code waiters} queue: one waiter spins, the JVM parks the others
     * (whatever their interrupt status, as for a monitor). The one spinning parks in spells once
     * spinning did not get the lock (the holder was descheduled), with one CAS per wake-up. A park
     * returns at once while the thread is interrupted, so the status is cleared for the wait and
     * handed back to the caller to set again once it has let the lock go. An overflow while waiting
     * loses it (and reaches the caller with nothing taken), and so does one in the call that sets
     * it again (after the lock is let go; an add that throws there has linked its task, which the
     * executor's schedule then abandons).
     */
    private boolean lockContended() {
        boolean clearedInterrupt = false;
        synchronized (waiters) {
            int spins = 0;
            while (!LOCK.compareAndSet(this, 0, 1)) {
                if (spins < SPINS) {
                    spins++;
                    Thread.onSpinWait();
                } else {
                    clearedInterrupt |= Thread.interrupted();
                    LockSupport.parkNanos(this, PARK_NANOS);
                }
            }
            // Nothing after the CAS that took the lock: an Error here would leave it held.
        }
        return clearedInterrupt;
    }
}
