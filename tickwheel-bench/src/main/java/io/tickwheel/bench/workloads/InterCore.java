package io.tickwheel.bench.workloads;

import java.util.Arrays;

/**
 * Measures what it costs this machine, right now, to move a cache line from one core to another
 * and back: two threads bounce a counter through two volatile fields, and the mean round trip is
 * returned.
 *
 * <p>Why the harness needs it: on this project's 2-core VM the round trip is about 70 ns for
 * minutes at a time and then about 320 ns for minutes at a time, as the host moves the VM's two
 * virtual CPUs between nearby and distant physical cores. Every timer whose worker reads what the
 * scheduling thread writes pays that transfer per operation, so W2's CPU per operation moves with
 * it (tickwheel-hier about 56 and 73 ns; Netty 4.1 about 62 and 135 to 210 ns), and a ratio
 * between two timers measured in different modes compares the machine, not the timers. Each W1 and
 * W2 round records the round trip just before its loop, and the summary warns when a ratio crosses
 * modes.
 *
 * <p>Threading: each call starts and joins its own helper thread; the caller spins meanwhile.
 */
public final class InterCore {

    /** Round trips per measurement: about 7 ms in the fast mode, 32 ms in the slow one. */
    static final int TRIPS = 100_000;
    /** Measured batches; the median batch's mean is the result. */
    private static final int BATCHES = 9;
    /** A measurement gives up after this long (one core only: each trip waits for a time slice). */
    private static final long GIVE_UP_NANOS = 2_000_000_000L;

    private volatile long ping;
    private volatile long pong;
    private volatile boolean stop;

    private InterCore() {
    }

    /**
     * Measures the mean round trip of a cache line between this thread and a helper thread.
     *
     * @param trips how many round trips
     * @return nanoseconds per round trip, or -1 if it could not be measured within 2 s
     * @throws InterruptedException if interrupted while joining the helper
     */
    public static double roundTripNanos(final int trips) throws InterruptedException {
        InterCore line = new InterCore();
        Thread echo = new Thread(line::echo, "tickwheel-bench-intercore-echo");
        echo.setDaemon(true);
        echo.start();
        int batch = Math.max(1, trips / BATCHES);
        double[] means = new double[BATCHES];
        long deadline = System.nanoTime() + GIVE_UP_NANOS;
        boolean done = line.bounce(1, batch, deadline); // unmeasured: the helper may start on our core
        long next = batch + 1L;
        for (int b = 0; b < BATCHES && done; b++) {
            long start = System.nanoTime();
            done = line.bounce(next, batch, deadline);
            means[b] = (double) (System.nanoTime() - start) / batch;
            next += batch;
        }
        line.stop = true;
        echo.join(10_000);
        if (!done) {
            return -1;
        }
        // The median batch: a batch in which the scheduler briefly put both threads on one core,
        // or preempted one, says nothing about the cores' distance.
        Arrays.sort(means);
        return means[BATCHES / 2];
    }

    /** The helper: answers each new ping with the same number, until told to stop. */
    private void echo() {
        long last = 0;
        while (!stop) {
            long p = ping;
            if (p != last) {
                pong = p;
                last = p;
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** The caller's side: {@code count} round trips numbered from {@code first}; false if it gave up. */
    private boolean bounce(final long first, final int count, final long deadline) {
        for (long i = first; i < first + count; i++) {
            ping = i;
            int spins = 0;
            while (pong != i) {
                Thread.onSpinWait();
                if (++spins == 1 << 16) {
                    spins = 0;
                    if (System.nanoTime() - deadline > 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * Prints the round trip a few times, one second apart, for comparing with a run's records.
     *
     * @param args optional: how many readings (default 5)
     * @throws InterruptedException if interrupted
     */
    public static void main(final String[] args) throws InterruptedException {
        int readings = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        roundTripNanos(TRIPS); // compiles the loops
        for (int i = 0; i < readings; i++) {
            System.out.printf(java.util.Locale.ROOT, "inter-core round trip %.1f ns%n", roundTripNanos(TRIPS));
            if (i + 1 < readings) {
                Thread.sleep(1_000);
            }
        }
    }
}
