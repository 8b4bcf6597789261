package io.tickwheel;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link SlowTaskReportTest}: a JVM in which no recording ever initialized JFR,
 * with its logging already in use (as in any service), runs one slow task, then timeouts due
 * just after it, and prints the worst lateness among them in microseconds.
 */
public final class SlowTaskReportChild {

    private static final int PROBES = 60;

    private SlowTaskReportChild() {
    }

    /**
     * Runs the check.
     *
     * @param args the timer: "hier" or "hashed"
     * @throws Exception on a failure, which fails the test
     */
    public static void main(final String[] args) throws Exception {
        System.getLogger(SlowTaskReportChild.class.getName()).log(System.Logger.Level.INFO, "logging in use");
        Duration threshold = Duration.ofMillis(20);
        Duration tick = Duration.ofMillis(1);
        Timer timer = "hier".equals(args[0])
                ? HierarchicalWheelTimer.builder().tickDuration(tick).slowTaskThreshold(threshold).build()
                : HashedWheelTimer.builder().tickDuration(tick).slowTaskThreshold(threshold).build();
        CountDownLatch fired = new CountDownLatch(PROBES);
        AtomicLong worst = new AtomicLong();
        AtomicLong slowEnded = new AtomicLong(Long.MIN_VALUE);
        try {
            long base = System.nanoTime();
            timer.newTimeout(timeout -> {
                Thread.sleep(40);
                slowEnded.set(System.nanoTime());
            }, 10, TimeUnit.MILLISECONDS);
            for (int i = 0; i < PROBES; i++) {
                long deadline = base + TimeUnit.MILLISECONDS.toNanos(60 + 5L * i);
                timer.newTimeout(timeout -> {
                    // Counted from the slow task's end if it ran late itself: the report comes after.
                    long due = Math.max(deadline, slowEnded.get());
                    worst.accumulateAndGet(System.nanoTime() - due, Math::max);
                    fired.countDown();
                }, deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            }
            if (!fired.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError("only " + (PROBES - fired.getCount()) + " of " + PROBES + " fired");
            }
        } finally {
            timer.stop(); // its worker thread is not a daemon: the JVM would not exit
        }
        System.out.println("jfr initialized " + jdk.jfr.FlightRecorder.isInitialized());
        System.out.println("worst " + TimeUnit.NANOSECONDS.toMicros(worst.get()));
    }
}
