package io.tickwheel.bench.workloads;

import java.util.concurrent.locks.LockSupport;

/**
 * Paces a loop at a fixed rate against a plan made in advance: operation {@code i} is due at
 * {@code start + i / rate}. A caller that falls behind does the due operations back to back
 * without sleeping, so a stall is measured rather than hidden (no coordinated omission). It
 * parks, never spins, while ahead of the plan, to leave the CPU to the timer under test, and
 * parks for at least a millisecond at a time, so operations go out in small
 * bursts (of 100 at 100,000/s) instead of paying one wake-up each; the workloads derive every
 * deadline from the plan or from the time read just before the call, never from the park.
 *
 * <p>Threading: not thread-safe; confined to the one producer thread.
 */
public final class Pacer {

    /** The shortest park: 1 ms. */
    static final long MIN_PARK_NANOS = 1_000_000L;

    private long startNanos;
    private long lastIndex = -1;
    private final double intervalNanos;
    private long maxLagNanos;

    /** One operation of a paced load. */
    @FunctionalInterface
    interface Step {
        /**
         * Runs operation {@code j}.
         *
         * @param now the time read when it was due or later
         * @param j its index
         */
        void run(long now, long j);
    }

    /**
     * Collects the garbage of a warm-up, then goes on with the load for {@code settle} operations
     * before a measured window opens, and returns the window's own pacer (the same plan from there
     * on, so that its lag is the window's). Without the collection the window allocates into heap
     * pages never touched before and pays their page faults, which a long-running service's
     * recycled heap does not; the settle lets what the collection's pause held up play out, so
     * that the window meets the steady state again.
     *
     * @param ratePerSecond the load's rate
     * @param settle operations between the collection and the window
     * @param step one operation
     * @return the window's pacer: its operation 0 is due right after the settle's last
     * @throws InterruptedException if interrupted while the collection settles
     */
    static Pacer settleBeforeWindow(final double ratePerSecond, final long settle, final Step step)
            throws InterruptedException {
        Probes.usedHeapAfterGc();
        Pacer pacer = new Pacer(System.nanoTime() + 10 * Tasks.MS, ratePerSecond);
        for (long j = 0; j < settle; j++) {
            step.run(pacer.awaitSlot(j), j);
        }
        return new Pacer(pacer.plannedNanos(settle), ratePerSecond);
    }

    /**
     * Makes a plan.
     *
     * @param startNanos when operation 0 is due ({@code System.nanoTime()} scale)
     * @param ratePerSecond operations per second
     */
    public Pacer(final long startNanos, final double ratePerSecond) {
        this.startNanos = startNanos;
        this.intervalNanos = 1e9 / ratePerSecond;
    }

    /**
     * Returns when an operation is due.
     *
     * @param i the operation's index
     * @return its planned time
     */
    public long plannedNanos(final long i) {
        return startNanos + (long) (i * intervalNanos);
    }

    /**
     * Waits until an operation is due, and records how late the caller got to it.
     *
     * @param i the operation's index
     * @return the time read when it was due or later
     */
    public long awaitSlot(final long i) {
        long planned = plannedNanos(i);
        long now = System.nanoTime();
        while (now < planned) {
            LockSupport.parkNanos(Math.max(planned - now, MIN_PARK_NANOS));
            now = System.nanoTime();
        }
        maxLagNanos = Math.max(maxLagNanos, now - planned);
        lastIndex = i;
        return now;
    }

    /**
     * Returns the largest lag seen.
     *
     * @return how far behind the plan the caller was at worst, in nanoseconds
     */
    public long maxLagNanos() {
        return maxLagNanos;
    }

    /**
     * Moves the plan so that the next operation is due {@code delayNanos} from now: after a pause
     * the caller did not choose (a collection its harness asked for), the load goes on at its rate
     * instead of catching up in a burst the steady state never sees.
     *
     * @param delayNanos how soon the next operation is due
     */
    public void restartIn(final long delayNanos) {
        startNanos = System.nanoTime() + delayNanos - (long) ((lastIndex + 1) * intervalNanos);
    }
}
