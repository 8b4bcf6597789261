package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The statistics when {@code newTimeout} races {@code stop()}: a call that offers its timeout and then
 * finds the timer stopped, with the final drain past it, throws; its offer was counted, so it counts
 * as scheduled and cancelled (documented on {@link TimerStats}), at most one per racing thread, and
 * the counts stay monotonic while the race goes on. Also: timers built without a thread factory
 * name their threads apart.
 */
class StatsAtStopRaceTest {

    private static final int ROUNDS = 30;
    private static final int PRODUCERS = 2;

    @ParameterizedTest
    @ValueSource(strings = {"hashed", "hierarchical"})
    void newTimeoutRacingStop_countsARefusedOfferAsScheduledAndCancelled(final String kind) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            Timer timer = timer(kind).get();
            AtomicLong accepted = new AtomicLong();
            AtomicLong refused = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(PRODUCERS);
            List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                Thread producer = new Thread(() -> {
                    started.countDown();
                    try {
                        while (true) {
                            timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
                            accepted.incrementAndGet();
                        }
                    } catch (IllegalStateException stopped) {
                        refused.incrementAndGet(); // each producer ends on the refusal that tells it
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                }, "producer-" + p);
                producer.start();
                producers.add(producer);
            }
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(2); // let them schedule a few thousand first
            Set<Timeout> unexpired = timer.stop();
            for (Thread producer : producers) {
                producer.join(10_000);
                assertThat(producer.isAlive()).as("%s ended", producer.getName()).isFalse();
            }
            assertThat(failure.get()).isNull();
            assertThat(refused.get()).isEqualTo(PRODUCERS);
            TimerStats stats = stats(timer);
            String context = kind + " round " + round + ": " + stats;
            long raceRefused = stats.scheduled() - accepted.get();
            assertThat(raceRefused).as(context).isBetween(0L, (long) PRODUCERS);
            assertThat(stats.cancelled()).as(context).isEqualTo(unexpired.size() + raceRefused);
            assertThat(stats.expired()).as(context).isZero();
            assertThat(stats.pending()).as(context).isZero();
            assertThat(stats.scheduled()).as(context).isEqualTo(stats.expired() + stats.cancelled() + stats.pending());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashed", "hierarchical"})
    void timersBuiltWithoutAFactory_nameTheirThreadsApart(final String kind) throws Exception {
        Timer first = timer(kind).get();
        Timer second = timer(kind).get();
        try {
            AtomicReference<String> firstName = new AtomicReference<>();
            AtomicReference<String> secondName = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(2);
            first.newTimeout(t -> {
                firstName.set(Thread.currentThread().getName());
                ran.countDown();
            }, 1, TimeUnit.MILLISECONDS);
            second.newTimeout(t -> {
                secondName.set(Thread.currentThread().getName());
                ran.countDown();
            }, 1, TimeUnit.MILLISECONDS);
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(firstName.get()).startsWith("tickwheel-").isNotEqualTo(secondName.get());
            assertThat(secondName.get()).startsWith("tickwheel-");
        } finally {
            first.stop();
            second.stop();
        }
    }

    private static Supplier<Timer> timer(final String kind) {
        return "hashed".equals(kind)
                ? () -> HashedWheelTimer.builder().tickDuration(1, TimeUnit.MILLISECONDS).build()
                : () -> HierarchicalWheelTimer.builder().build();
    }

    private static TimerStats stats(final Timer timer) {
        return timer instanceof HashedWheelTimer hashed ? hashed.stats() : ((HierarchicalWheelTimer) timer).stats();
    }
}
