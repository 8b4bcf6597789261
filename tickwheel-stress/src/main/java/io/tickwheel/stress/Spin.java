package io.tickwheel.stress;

/**
 * The busy-wait step the stress fixtures use while they wait for another thread.
 *
 * <p>Mostly {@link Thread#onSpinWait()}, which keeps the wait short when both threads are on a
 * CPU; every {@value #SPINS_BEFORE_YIELD}th step a {@link Thread#yield()}, because the machines
 * these tests run on (CI runners, a two-core box shared with builds) often have fewer free CPUs
 * than runnable threads, and the thread being waited for may need the waiter's CPU.
 *
 * <p>Threading: stateless.
 */
public final class Spin {

    private static final int SPINS_BEFORE_YIELD = 64;

    private Spin() {
    }

    /**
     * Waits a little; call in a loop with an increasing step count.
     *
     * @param step how many times the caller has waited so far, from 1
     */
    @SuppressWarnings("ThreadPriorityCheck") // yield is the point: see the class comment
    public static void pause(final int step) {
        if (step % SPINS_BEFORE_YIELD == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }
}
