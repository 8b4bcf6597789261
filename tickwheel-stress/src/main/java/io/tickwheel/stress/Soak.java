package io.tickwheel.stress;

import io.tickwheel.HashedWheelTimer;
import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerStats;
import io.tickwheel.TimerTask;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The soak: for a given time, randomized producers, cancellers and tasks that schedule and cancel
 * other timeouts, against timers that are stopped and recreated every cycle (alternating the two
 * kinds). Each timeout's task records how it ended; every cycle checks the accounting invariant
 * (every timeout accepted ends exactly once: ran once, cancelled by the one successful cancel(),
 * or returned by stop(); each cancelled one told once) and that the timer counts zero pending, and
 * the end checks that used heap after GC did not grow from the first cycle to the last.
 *
 * <p>Run: {@code java -cp tickwheel-stress/target/jcstress.jar io.tickwheel.stress.Soak [minutes]}
 * (default 10). Prints progress every cycle and one summary line; exits 1 on any violation.
 *
 * <p>Threading: the main thread drives cycles; producer threads share the counters (atomics).
 */
public final class Soak {

    private static final int PRODUCERS = 3;
    private static final int RING = 1 << 14;
    private static final long CYCLE_NANOS = TimeUnit.SECONDS.toNanos(20);
    /** Producers back off above this many pending timeouts, as a service under load would. */
    private static final long MAX_PENDING = 200_000;

    private final AtomicLong ops = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong ran = new AtomicLong();
    private final AtomicLong cancelled = new AtomicLong();
    private final AtomicLong returned = new AtomicLong();
    private final AtomicLong told = new AtomicLong();
    private final AtomicLong violations = new AtomicLong();
    private final AtomicReferenceArray<Timeout> ring = new AtomicReferenceArray<>(RING);

    private Soak() {
    }

    /** One timeout's task: counts how it ended, and flags a second ending as a violation. */
    private final class Probe implements TimerTask {
        private final AtomicInteger endings = new AtomicInteger();
        private final AtomicInteger tellings = new AtomicInteger();
        private final boolean spawns;

        Probe(final boolean spawns) {
            this.spawns = spawns;
        }

        @Override
        public void run(final Timeout timeout) {
            end();
            ran.incrementAndGet();
            if (spawns) {
                SplittableRandom random = new SplittableRandom(System.nanoTime());
                schedule(timeout.timer(), random);
                cancelOne(random);
            }
        }

        @Override
        public void cancelled(final Timeout timeout) {
            if (tellings.incrementAndGet() != 1) {
                violations.incrementAndGet();
            }
            told.incrementAndGet();
        }

        void end() {
            if (endings.incrementAndGet() != 1) {
                violations.incrementAndGet();
            }
        }
    }

    private void schedule(final Timer timer, final SplittableRandom random) {
        ops.incrementAndGet();
        int kind = random.nextInt(100);
        long delayMicros = kind < 80 ? random.nextLong(0, 20_000)
                : kind < 99 ? random.nextLong(0, 2_000_000) : TimeUnit.HOURS.toMicros(1);
        try {
            Timeout timeout = timer.newTimeout(new Probe(random.nextInt(20) == 0), delayMicros, TimeUnit.MICROSECONDS);
            accepted.incrementAndGet();
            ring.set(random.nextInt(RING), timeout);
        } catch (IllegalStateException stopped) {
            // refused because the cycle's stop() won: not accepted, nothing to account for
        }
    }

    private void cancelOne(final SplittableRandom random) {
        ops.incrementAndGet();
        Timeout victim = ring.get(random.nextInt(RING));
        // Read before cancel(): a completed cancel lets go of the task; if ours wins, this saw it.
        Object task = victim == null ? null : victim.task();
        if (victim != null && victim.cancel()) {
            ((Probe) task).end();
            cancelled.incrementAndGet();
        }
    }

    private boolean cycle(final int number) throws InterruptedException {
        Timer timer = number % 2 == 0 ? HierarchicalWheelTimer.builder().build()
                : new HashedWheelTimer(1, TimeUnit.MILLISECONDS);
        long[] start = {accepted.get(), ran.get(), cancelled.get(), returned.get()};
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            long seed = number * 31L + p;
            Thread thread = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                long step = 0;
                boolean throttled = false;
                while (running.get()) {
                    if ((++step & 1023) == 0) {
                        throttled = timer.pendingTimeouts() > MAX_PENDING;
                    }
                    if (throttled || random.nextInt(3) == 0) {
                        cancelOne(random);
                    } else {
                        schedule(timer, random);
                    }
                }
            }, "soak-producer-" + p);
            thread.start();
            threads.add(thread);
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(CYCLE_NANOS));
        // Stop while the producers are still scheduling: the race the invariant must survive.
        Set<Timeout> pending = timer.stop();
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }
        for (Timeout timeout : pending) {
            ((Probe) timeout.task()).end();
            returned.incrementAndGet();
        }
        for (int i = 0; i < RING; i++) {
            ring.set(i, null);
        }
        long ended = ran.get() + cancelled.get() + returned.get();
        boolean ok = violations.get() == 0 && ended == accepted.get() && timer.pendingTimeouts() == 0
                && told.get() == cancelled.get() + returned.get() && statsAgree(timer, start);
        System.err.printf(Locale.ROOT, "cycle %d (%s): ops %,d accepted %,d ran %,d cancelled %,d returned %,d "
                + "told %,d violations %d pending %d%s%n", number, timer.getClass().getSimpleName(), ops.get(),
                accepted.get(), ran.get(), cancelled.get(), returned.get(), told.get(), violations.get(),
                timer.pendingTimeouts(), ok ? "" : "  <-- INVARIANT BROKEN");
        return ok;
    }

    /**
     * The timer's own counters agree with what the probes saw in this cycle: scheduled = expired +
     * cancelled + pending with nothing pending, expired = ran, and cancelled = cancel() wins +
     * stop()'s set + the newTimeout calls that raced stop(), were offered, and were refused (each
     * counts as scheduled and cancelled, never as accepted).
     */
    private boolean statsAgree(final Timer timer, final long[] start) {
        TimerStats stats = timer instanceof HashedWheelTimer hashed ? hashed.stats()
                : ((HierarchicalWheelTimer) timer).stats();
        long racedStop = stats.scheduled() - (accepted.get() - start[0]);
        boolean ok = stats.pending() == 0 && stats.scheduled() == stats.expired() + stats.cancelled()
                && stats.expired() == ran.get() - start[1] && racedStop >= 0 && racedStop <= PRODUCERS
                && stats.cancelled() == cancelled.get() - start[2] + returned.get() - start[3] + racedStop
                && stats.taskFailures() == 0;
        System.err.printf(Locale.ROOT, "  stats: %s%s%n", stats, ok ? "" : "  <-- STATS DISAGREE");
        return ok;
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * Runs the soak.
     *
     * @param args optional: minutes to run (default 10)
     * @throws InterruptedException if interrupted
     */
    public static void main(final String[] args) throws InterruptedException {
        double minutes = args.length > 0 ? Double.parseDouble(args[0]) : 10;
        long end = System.nanoTime() + (long) (minutes * 60e9);
        Soak soak = new Soak();
        long start = System.nanoTime();
        boolean ok = true;
        long heapFirst = -1;
        long heapLast = -1;
        int number = 0;
        do {
            ok &= soak.cycle(number);
            heapLast = usedHeapAfterGc();
            if (number == 0) {
                heapFirst = heapLast;
            }
            number++;
        } while (ok && System.nanoTime() < end);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "soak %s: %,d ops in %.0f s over %d stop/recreate cycles; accepted %,d = "
                + "expired %,d + cancelled %,d + returned by stop %,d; violations %d; heap after GC %.1f MB "
                + "(first cycle) -> %.1f MB (last)%n", ok ? "PASSED" : "FAILED", soak.ops.get(), seconds, number,
                soak.accepted.get(), soak.ran.get(), soak.cancelled.get(), soak.returned.get(),
                soak.violations.get(), heapFirst / 1e6, heapLast / 1e6);
        if (!ok) {
            System.exit(1);
        }
    }
}
