package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.Timeout;
import io.tickwheel.TimerTask;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The lifecycle edges: stop() racing the first start(), and Thread.start() failing under producers. */
class TimerCoreLifecycleTest {

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);

    /** A worker thread whose start() blocks until released, then starts (or fails). */
    private static final class GatedFactory implements ThreadFactory {
        final CountDownLatch inStart = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final boolean fail;

        GatedFactory(final boolean fail) {
            this.fail = fail;
        }

        @Override
        public Thread newThread(final Runnable r) {
            Thread t = new Thread(r, "review-worker") {
                @Override
                public synchronized void start() {
                    inStart.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    if (fail) {
                        // what "unable to create native thread" looks like to start()
                        throw new OutOfMemoryError("simulated: unable to create native thread");
                    }
                    super.start();
                }
            };
            t.setDaemon(true);
            return t;
        }
    }

    private static final class Probe implements TimerTask {
        final AtomicInteger runs = new AtomicInteger();
        final AtomicInteger cancels = new AtomicInteger();

        @Override
        public void run(final Timeout timeout) {
            runs.incrementAndGet();
        }

        @Override
        public void cancelled(final Timeout timeout) {
            cancels.incrementAndGet();
        }
    }

    /** Starts a thread whose first newTimeout starts the timer and waits in the gated Thread.start(). */
    private static Thread firstScheduleHeldInStart(final TimerCore core, final GatedFactory factory)
            throws InterruptedException {
        Thread first = new Thread(() -> {
            try {
                core.schedule(null, new Probe(), 0);
            } catch (Throwable ignored) {
                // expected: the simulated start failure
            }
        });
        first.start();
        factory.inStart.await();
        return first;
    }

    private static TimerCore core(final ThreadFactory factory) {
        return new TimerCore(new TimerOptions(TimerOptions.Kind.HASHED, "HashedWheelTimer")
                .tickNanos(TICK).wheelSize(64).threadFactory(factory));
    }

    /** stop() while the first newTimeout is between start()'s CAS and Thread.start(). */
    @Test
    void stop_racingFirstStart_returnsNormallyAndPendingIsZero() throws Exception {
        GatedFactory factory = new GatedFactory(false);
        TimerCore core = core(factory);
        AtomicReference<Throwable> scheduleFailure = new AtomicReference<>();
        AtomicReference<TimeoutNode> scheduled = new AtomicReference<>();
        Thread scheduler = new Thread(() -> {
            try {
                scheduled.set(core.schedule(null, new Probe(), TimeUnit.SECONDS.toNanos(10)));
            } catch (Throwable t) {
                scheduleFailure.set(t);
            }
        });
        scheduler.start();
        factory.inStart.await();
        AtomicReference<Throwable> stopFailure = new AtomicReference<>();
        AtomicReference<Set<Timeout>> stopped = new AtomicReference<>();
        Thread stopper = new Thread(() -> {
            try {
                stopped.set(core.stop());
            } catch (Throwable t) {
                stopFailure.set(t);
            }
        });
        stopper.start();
        stopper.join(500);
        assertThat(stopper.isAlive()).as("stop() waits for the worker's drain while Thread.start() is held")
                .isTrue();
        factory.release.countDown();
        stopper.join(5_000);
        scheduler.join(5_000);
        assertThat(stopper.isAlive()).as("stop() returned").isFalse();
        assertThat(scheduler.isAlive()).as("the first newTimeout returned").isFalse();
        assertThat(stopFailure.get()).as("stop() threw").isNull();
        // The first newTimeout either lost the race (IllegalStateException) or its timeout is in stop()'s set.
        if (scheduleFailure.get() == null) {
            assertThat(stopped.get()).containsExactly(scheduled.get());
        } else {
            assertThat(scheduleFailure.get()).isInstanceOf(IllegalStateException.class);
            assertThat(stopped.get()).isEmpty();
        }
        assertThat(core.pendingTimeouts()).isZero();
    }

    /**
     * Thread.start() fails after start()'s CAS, while another producer sees STARTED and offers: the
     * failed start drains the queue, so that timeout ends (cancelled, told once) instead of being
     * stranded.
     */
    @Test
    void start_threadStartFails_racingProducersTimeoutIsCancelledAndTold() throws Exception {
        GatedFactory factory = new GatedFactory(true);
        TimerCore core = core(factory);
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        Thread first = new Thread(() -> {
            try {
                core.schedule(null, new Probe(), 0);
            } catch (Throwable t) {
                firstFailure.set(t);
            }
        });
        first.start();
        factory.inStart.await();
        Probe probe = new Probe();
        TimeoutNode stranded = core.schedule(null, probe, TICK); // sees STARTED: accepted
        factory.release.countDown();
        first.join(5_000);
        assertThat(first.isAlive()).as("the failed start returned").isFalse();
        assertThat(firstFailure.get()).isInstanceOf(OutOfMemoryError.class);
        Set<Timeout> returned = core.stop();
        assertThat(stranded.isCancelled())
                .as("an accepted timeout must end: here cancelled by the failed start's drain")
                .isTrue();
        assertThat(probe.runs.get()).isZero();
        assertThat(probe.cancels.get()).as("cancelled() called once").isOne();
        assertThat(returned).doesNotContain(stranded);
        assertThat(core.pendingTimeouts()).isZero();
    }

    /** As above, with a concurrent stop() waiting for the drain when Thread.start() fails. */
    @Test
    void start_threadStartFailsWhileStopWaits_stopDoesNotThrow() throws Exception {
        GatedFactory factory = new GatedFactory(true);
        TimerCore core = core(factory);
        Thread first = firstScheduleHeldInStart(core, factory);
        AtomicReference<Throwable> stopFailure = new AtomicReference<>();
        Thread stopper = new Thread(() -> {
            try {
                core.stop();
            } catch (Throwable t) {
                stopFailure.set(t);
            }
        });
        stopper.start();
        stopper.join(300);
        assertThat(stopper.isAlive()).as("stop() waits while Thread.start() is held").isTrue();
        factory.release.countDown();
        first.join(5_000);
        stopper.join(5_000);
        assertThat(first.isAlive()).as("the failed start returned").isFalse();
        assertThat(stopper.isAlive()).as("stop() returned").isFalse();
        assertThat(stopFailure.get()).as("stop() threw").isNull();
        assertThat(core.pendingTimeouts()).isZero();
    }

    /**
     * Thread.start() fails, and a stop() comes in while the failed start drains and tells: exactly
     * one of them tells each timeout, once. A version of 2026-11-29 let that stop() take the report
     * between the drain and the start's own telling, and both told.
     */
    @Test
    void start_threadStartFailsThenStopRacesTheTelling_eachTimeoutToldOnce() throws Exception {
        java.util.SplittableRandom random = new java.util.SplittableRandom(29);
        for (int round = 0; round < 300; round++) {
            GatedFactory factory = new GatedFactory(true);
            TimerCore core = core(factory);
            Thread first = firstScheduleHeldInStart(core, factory);
            Probe probe = new Probe();
            TimeoutNode stranded = core.schedule(null, probe, TICK); // sees STARTED: accepted
            long spins = random.nextLong(20_000);
            AtomicReference<Set<Timeout>> returned = new AtomicReference<>();
            AtomicReference<Throwable> stopFailure = new AtomicReference<>();
            Thread stopper = new Thread(() -> {
                for (long i = 0; i < spins; i++) {
                    Thread.onSpinWait();
                }
                try {
                    returned.set(core.stop());
                } catch (Throwable t) {
                    stopFailure.set(t);
                }
            });
            factory.release.countDown();
            stopper.start();
            first.join(5_000);
            stopper.join(5_000);
            String what = "round " + round + ", " + spins + " spins";
            assertThat(first.isAlive()).as(what + ": the failed start returned").isFalse();
            assertThat(stopper.isAlive()).as(what + ": stop() returned").isFalse();
            assertThat(stopFailure.get()).as(what + ": stop() threw").isNull();
            assertThat(stranded.isCancelled()).as(what).isTrue();
            assertThat(probe.runs.get()).as(what).isZero();
            assertThat(probe.cancels.get()).as(what + ": cancelled() calls").isOne();
            assertThat(returned.get().size()).as(what + ": returned by stop() at most once").isLessThanOrEqualTo(1);
            assertThat(core.pendingTimeouts()).as(what).isZero();
        }
    }
}
