package io.tickwheel.durable.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@link RefusedWork}: what the wheel or the executor refused is run again until it is taken,
 * whatever the attempt throws, by at most one thread at a time, and never after close.
 */
class RefusedWorkTest {

    /** Starts each loop on a daemon thread, counting loops that run at once and the most at once. */
    private static final class CountingStarter implements Function<Runnable, Thread> {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final AtomicInteger started = new AtomicInteger();
        final List<Thread> threads = new ArrayList<>();

        @Override
        public synchronized Thread apply(final Runnable loop) {
            Thread t = new Thread(() -> {
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    loop.run();
                } finally {
                    running.decrementAndGet();
                }
            }, "refused-work-test");
            t.setDaemon(true);
            started.incrementAndGet();
            threads.add(t);
            t.start();
            return t;
        }

        synchronized boolean allEnded() {
            return threads.stream().noneMatch(Thread::isAlive);
        }
    }

    @Test
    void attemptRefusedTwice_runsOnTheThirdTry_thenTheThreadEnds() {
        CountingStarter starter = new CountingStarter();
        RefusedWork work = new RefusedWork("t", starter);
        AtomicInteger tries = new AtomicInteger();
        AtomicInteger taken = new AtomicInteger();
        Runnable[] attempt = new Runnable[1];
        attempt[0] = () -> {
            if (tries.incrementAndGet() < 3) {
                work.add(attempt[0], null); // refused again: it queues itself, as the real callers do
            } else {
                taken.incrementAndGet();
            }
        };
        work.add(attempt[0], new IllegalStateException("first refusal"));
        await().atMost(Duration.ofSeconds(10)).until(() -> taken.get() == 1 && starter.allEnded());
        assertThat(tries.get()).isEqualTo(3);
        assertThat(work.waiting()).isZero();
        assertThat(starter.started.get()).as("one thread for the whole run").isEqualTo(1);
    }

    @Test
    void attemptThatThrows_isKeptAndRunAgain() {
        RefusedWork work = new RefusedWork("t", new CountingStarter());
        AtomicInteger tries = new AtomicInteger();
        work.add(() -> {
            if (tries.incrementAndGet() == 1) {
                throw new OutOfMemoryError("injected");
            }
        }, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> tries.get() == 2 && work.waiting() == 0);
    }

    @Test
    void threadThatCannotStart_isStartedByTheNextKick() {
        AtomicInteger failStarts = new AtomicInteger(1);
        CountingStarter real = new CountingStarter();
        RefusedWork work = new RefusedWork("t", loop -> {
            if (failStarts.getAndDecrement() > 0) {
                throw new OutOfMemoryError("unable to create native thread (injected)");
            }
            return real.apply(loop);
        });
        CountDownLatch ran = new CountDownLatch(1);
        work.add(ran::countDown, null);
        assertThat(work.waiting()).as("kept while no thread could start").isEqualTo(1);
        work.kick();
        await().atMost(Duration.ofSeconds(10)).until(() -> ran.getCount() == 0 && real.allEnded());
        assertThat(real.started.get()).isEqualTo(1);
    }

    @Test
    void close_dropsWhatWaitsAndEndsTheThread() throws InterruptedException {
        CountingStarter starter = new CountingStarter();
        RefusedWork work = new RefusedWork("t", starter);
        AtomicInteger tries = new AtomicInteger();
        Runnable[] forever = new Runnable[1];
        forever[0] = () -> {
            tries.incrementAndGet();
            work.add(forever[0], null);
        };
        work.add(forever[0], null);
        await().atMost(Duration.ofSeconds(10)).until(() -> tries.get() >= 2);
        work.close();
        await().atMost(Duration.ofSeconds(10)).until(starter::allEnded);
        int after = tries.get();
        work.add(forever[0], null);
        Thread.sleep(100);
        assertThat(tries.get()).as("nothing runs after close").isEqualTo(after);
        assertThat(work.waiting()).isZero();
    }

    /**
     * Randomized: producers add attempts that are refused a random number of times (queueing
     * themselves again, or throwing), while the retry thread comes and goes. Accounting: each
     * attempt is taken exactly once, nothing is left waiting, and no two retry threads ever ran at
     * once.
     */
    @Test
    void randomRefusalsFromManyThreads_eachAttemptTakenOnce_neverTwoThreads() throws Exception {
        for (long seed = 1; seed <= 4; seed++) {
            CountingStarter starter = new CountingStarter();
            RefusedWork work = new RefusedWork("t", starter);
            int producers = 4;
            int perProducer = 200;
            AtomicIntegerArray taken = new AtomicIntegerArray(producers * perProducer);
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                SplittableRandom random = new SplittableRandom(seed * 31 + p);
                int first = p * perProducer;
                Thread producer = new Thread(() -> {
                    for (int i = first; i < first + perProducer; i++) {
                        work.add(attempt(work, taken, i, random.nextInt(4), random.nextInt(8) == 0), null);
                        if (random.nextInt(8) == 0) {
                            // Let the retry thread drain and end now and then, so starts race with exits.
                            try {
                                Thread.sleep(random.nextInt(25));
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                return;
                            }
                        }
                    }
                }, "refused-work-producer");
                threads.add(producer);
                producer.start();
            }
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertThat(t.isAlive()).isFalse();
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> work.waiting() == 0 && starter.allEnded());
            for (int i = 0; i < taken.length(); i++) {
                assertThat(taken.get(i)).as("seed %d: times attempt %d was taken", seed, i).isEqualTo(1);
            }
            assertThat(starter.mostAtOnce.get()).as("seed %d: retry threads at once", seed).isEqualTo(1);
            assertThat(starter.started.get()).as("seed %d: threads started", seed).isPositive();
        }
    }

    /** An attempt refused {@code refusals} times, by queueing itself again or by throwing, then taken. */
    private static Runnable attempt(final RefusedWork work, final AtomicIntegerArray taken, final int id,
            final int refusals, final boolean throwing) {
        AtomicInteger left = new AtomicInteger(refusals);
        Runnable[] self = new Runnable[1];
        self[0] = () -> {
            if (left.getAndDecrement() > 0) {
                if (throwing) {
                    throw new IllegalStateException("injected refusal");
                }
                work.add(self[0], null);
                return;
            }
            taken.incrementAndGet(id);
        };
        return self[0];
    }
}
