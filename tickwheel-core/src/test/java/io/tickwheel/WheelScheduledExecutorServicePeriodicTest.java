package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** scheduleAtFixedRate and scheduleWithFixedDelay, from the JDK's documentation of both. */
class WheelScheduledExecutorServicePeriodicTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Timer timer = HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build();
    /** Four threads, so overlapping runs of one task would be possible if the executor allowed them. */
    private final ExecutorService workers = Executors.newFixedThreadPool(4);
    private final WheelScheduledExecutorService ses = new WheelScheduledExecutorService(timer, workers);

    /** What one periodic task did: start and end of each run, and the most runs at once. */
    private static final class Runs implements Runnable {
        final List<Long> starts = new CopyOnWriteArrayList<>();
        final List<Long> ends = new CopyOnWriteArrayList<>();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();
        private final long bodyMillis;

        Runs(final long bodyMillis) {
            this.bodyMillis = bodyMillis;
        }

        @Override
        public void run() {
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            starts.add(System.nanoTime());
            try {
                Thread.sleep(bodyMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ends.add(System.nanoTime());
            running.decrementAndGet();
        }
    }

    @AfterEach
    void tearDown() {
        ses.shutdownNow();
        workers.shutdownNow();
        timer.stop();
    }

    @Test
    void scheduleAtFixedRate_runs_runKNeverStartsBeforeInitialDelayPlusKPeriods() {
        Runs runs = new Runs(0);
        long before = System.nanoTime();
        ScheduledFuture<?> future = ses.scheduleAtFixedRate(runs, 30, 20, TimeUnit.MILLISECONDS);

        await().atMost(PATIENCE).until(() -> runs.ends.size() >= 5);
        future.cancel(false);

        for (int k = 0; k < 5; k++) {
            assertThat(runs.starts.get(k) - before).as("run %d", k).isGreaterThanOrEqualTo((30 + 20L * k) * MS);
        }
    }

    @Test
    void scheduleAtFixedRate_slowBody_dueTimesStayOnTheOriginalGrid() throws Exception {
        long period = 40 * MS;
        Runs runs = new Runs(15); // a drifting schedule would move each due time by at least this
        ses.scheduleAtFixedRate(() -> { }, 0, 1, TimeUnit.HOURS).cancel(false); // warm up: a tight bracket
        long before = System.nanoTime();
        ScheduledFuture<?> future = ses.scheduleAtFixedRate(runs, 40, 40, TimeUnit.MILLISECONDS);
        long after = System.nanoTime();

        long highestGridIndex = 0;
        while (runs.ends.size() < 5) {
            long readBefore = System.nanoTime();
            long delay = future.getDelay(TimeUnit.NANOSECONDS);
            long readAfter = System.nanoTime();
            // The due time lies in [readBefore + delay, readAfter + delay]; the grid's origin in
            // [before, after] + initial delay. Some grid point k * period must fit the bracket.
            long low = readBefore + delay - (after + period);
            long high = readAfter + delay - (before + period);
            long k = Math.floorDiv(high, period);
            assertThat(k * period).as("due time offset in [%d, %d] ns", low, high).isGreaterThanOrEqualTo(low);
            highestGridIndex = Math.max(highestGridIndex, k);
            Thread.sleep(7); // sample a few times per period
        }
        future.cancel(false);

        assertThat(highestGridIndex).isGreaterThanOrEqualTo(4);
    }

    @Test
    void scheduleAtFixedRate_bodyOverrunsPeriod_nextStartsAfterItEndsNeverOverlapping() {
        Runs runs = new Runs(30);
        ScheduledFuture<?> future = ses.scheduleAtFixedRate(runs, 0, 10, TimeUnit.MILLISECONDS);

        await().atMost(PATIENCE).until(() -> runs.ends.size() >= 5);
        future.cancel(false);

        assertThat(runs.maxRunning.get()).isEqualTo(1);
        for (int k = 0; k + 1 < 5; k++) {
            assertThat(runs.starts.get(k + 1)).as("run %d", k + 1).isGreaterThanOrEqualTo(runs.ends.get(k));
        }
    }

    @Test
    void scheduleWithFixedDelay_runs_nextStartsAtLeastDelayAfterPreviousEnd() {
        Runs runs = new Runs(5);
        ScheduledFuture<?> future = ses.scheduleWithFixedDelay(runs, 0, 20, TimeUnit.MILLISECONDS);

        await().atMost(PATIENCE).until(() -> runs.ends.size() >= 5);
        future.cancel(false);

        assertThat(runs.maxRunning.get()).isEqualTo(1);
        for (int k = 0; k + 1 < 5; k++) {
            assertThat(runs.starts.get(k + 1) - runs.ends.get(k)).as("gap after run %d", k)
                    .isGreaterThanOrEqualTo(20 * MS);
        }
    }

    @Test
    void scheduleAtFixedRate_bodyThrowsOnThirdRun_scheduleEndsAndGetThrows() {
        AtomicInteger runs = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("third run fails");
        ScheduledFuture<?> future = ses.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 3) {
                throw boom;
            }
        }, 1, 5, TimeUnit.MILLISECONDS);

        assertThatThrownBy(future::get).isInstanceOf(ExecutionException.class).hasCause(boom);
        await().during(Duration.ofMillis(100)).atMost(PATIENCE).until(() -> runs.get() == 3);
        assertThat(future.isDone()).isTrue();
        assertThat(future.isCancelled()).isFalse();
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void scheduleWithFixedDelay_cancelledFromItsOwnBody_runsNoMore() {
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<ScheduledFuture<?>> self = new AtomicReference<>();
        self.set(ses.scheduleWithFixedDelay(() -> {
            if (runs.incrementAndGet() == 3) {
                self.get().cancel(false);
            }
        }, 1, 2, TimeUnit.MILLISECONDS));

        await().atMost(PATIENCE).until(() -> self.get().isCancelled());
        await().during(Duration.ofMillis(100)).atMost(PATIENCE).until(() -> runs.get() == 3);
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void cancel_periodicBetweenRuns_removesTimeoutAndGetThrowsCancellation() {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = ses.scheduleAtFixedRate(runs::incrementAndGet, 0, 1, TimeUnit.HOURS);
        await().atMost(PATIENCE).until(() -> runs.get() == 1 && timer.pendingTimeouts() == 1);

        assertThatThrownBy(() -> future.get(20, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        assertThat(future.cancel(false)).isTrue();

        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(future.isDone()).isTrue();
        assertThatThrownBy(future::get).isInstanceOf(CancellationException.class);
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void scheduleAtFixedRate_future_isRunnableScheduledFutureThatSaysPeriodic() {
        ScheduledFuture<?> periodic = ses.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.HOURS);
        ScheduledFuture<?> oneShot = ses.schedule(() -> { }, 1, TimeUnit.HOURS);

        assertThat((Object) periodic).isInstanceOf(RunnableScheduledFuture.class);
        assertThat(((RunnableScheduledFuture<?>) periodic).isPeriodic()).isTrue();
        assertThat(((RunnableScheduledFuture<?>) oneShot).isPeriodic()).isFalse();
    }
}
