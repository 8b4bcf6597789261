package io.tickwheel.bench.jmh;

import io.tickwheel.bench.timers.BenchTimer;
import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.workloads.Probes;
import io.tickwheel.bench.workloads.Tasks;
import java.util.Arrays;
import java.util.Locale;

/**
 * A small, fixed measurement of the schedule path for profiling work, independent of the
 * simulator's harness (which may change): W1 (one thread schedules n timeouts 10 to 60 s out) or
 * W2 (10k outstanding 30 s timeouts; each op schedules one and cancels the oldest), with the
 * independent harness's method: two warm-up rounds of the full size, then five measured rounds,
 * each on a fresh timer, a full collection between rounds, process CPU and wall time over the
 * loop only, and the median. Run one timer per JVM:
 * {@code java -Xms4g -Xmx4g -XX:+UseParallelGC -cp tickwheel-bench.jar
 * io.tickwheel.bench.jmh.SchedulePathProbe tickwheel-hier-1ms W1}.
 *
 * <p>Threading: main thread only (the timers run their own threads).
 */
public final class SchedulePathProbe {

    private static final int WARMUPS = 2;
    private static final int ROUNDS = 5;
    private static final int CHURN_OUTSTANDING = 10_000;
    private static final long CHURN_DELAY = 30 * Tasks.SECOND;

    private SchedulePathProbe() {
    }

    /**
     * Runs one timer on one workload and prints the medians.
     *
     * @param args timer id, W1 or W2, and optionally the operation count
     */
    public static void main(final String[] args) {
        String id = args[0];
        boolean churn = "W2".equals(args[1]);
        int n = args.length > 2 ? Integer.parseInt(args[2]) : churn ? 5_000_000 : 1_000_000;
        long[] delays = Tasks.uniformDelays(n, 10 * Tasks.SECOND, 60 * Tasks.SECOND, 7);
        double[] wall = new double[ROUNDS];
        double[] cpu = new double[ROUNDS];
        for (int round = -WARMUPS; round < ROUNDS; round++) {
            BenchTimer timer = TimerCatalog.find(id)
                    .orElseThrow(() -> new IllegalArgumentException("unknown timer " + id)).create();
            Object task = timer.prepare(Tasks.NOOP);
            Object[] ring = churn ? fill(timer, task) : null;
            System.gc();
            long cpu0 = Probes.processCpuNanos();
            long wall0 = System.nanoTime();
            if (churn) {
                churn(timer, task, ring, n);
            } else {
                schedule(timer, task, delays);
            }
            long wall1 = System.nanoTime();
            long cpu1 = Probes.processCpuNanos();
            timer.stop();
            if (round >= 0) {
                wall[round] = (wall1 - wall0) / (double) n;
                cpu[round] = (cpu1 - cpu0) / (double) n;
            }
        }
        System.out.printf(Locale.ROOT, "%s %s n=%d: CPU %.1f ns/op, wall %.1f ns/op (median of %d; CPU %s)%n",
                id, args[1], n, median(cpu), median(wall), ROUNDS, Arrays.toString(round1(cpu)));
    }

    private static void schedule(final BenchTimer timer, final Object task, final long[] delays) {
        for (long delay : delays) {
            timer.schedule(task, delay);
        }
    }

    private static Object[] fill(final BenchTimer timer, final Object task) {
        Object[] ring = new Object[CHURN_OUTSTANDING];
        for (int i = 0; i < ring.length; i++) {
            ring[i] = timer.schedule(task, CHURN_DELAY);
        }
        return ring;
    }

    private static void churn(final BenchTimer timer, final Object task, final Object[] ring, final int ops) {
        int slot = 0;
        for (int i = 0; i < ops; i++) {
            Object fresh = timer.schedule(task, CHURN_DELAY);
            timer.cancel(ring[slot]);
            ring[slot] = fresh;
            slot = slot + 1 == ring.length ? 0 : slot + 1;
        }
    }

    private static double median(final double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double[] round1(final double[] values) {
        double[] rounded = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            rounded[i] = Math.round(values[i] * 10) / 10.0;
        }
        return rounded;
    }
}
