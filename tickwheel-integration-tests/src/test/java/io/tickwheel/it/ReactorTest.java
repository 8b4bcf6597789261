package io.tickwheel.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timers;
import io.tickwheel.WheelScheduledExecutorService;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Reactor's time operators on the wheel: {@code Mono.delay} and {@code timeout} given a
 * {@code Schedulers.fromExecutorService(new WheelScheduledExecutorService(...))}. Delays are never
 * early, bodies run on the workers (never on the timer's thread), a cancelled subscription takes its
 * timeout off the wheel, and {@code Flux.interval} ticks at its period. The first test is the README's lines.
 */
class ReactorTest {

    /** One {@code Flux.interval} emission and when it arrived, after the subscription. */
    record Tick(long index, long elapsedNanos) {
    }

    @Test
    void readmeLines_delayAndTimeout() {
        Duration delay = Duration.ofMillis(200);
        Duration timeout = Duration.ofMillis(200);
        AtomicReference<String> thread = new AtomicReference<>();
        Mono<String> slowCall = Mono.never();

        ExecutorService workers = Executors.newFixedThreadPool(2);
        Scheduler wheel = Schedulers.fromExecutorService(
                new WheelScheduledExecutorService(Timers.shared(), workers), "wheel");
        Mono<Long> delayed = Mono.delay(delay, wheel);
        Mono<String> reply = slowCall.timeout(timeout, wheel);

        try {
            long start = System.nanoTime();
            Long emitted = delayed.doOnNext(v -> thread.set(Thread.currentThread().getName()))
                    .block(Duration.ofSeconds(10));
            assertThat(emitted).isZero();
            assertThat(System.nanoTime() - start).as("never early").isGreaterThanOrEqualTo(delay.toNanos());
            assertThat(thread.get()).as("runs on the workers, not on the timer's thread")
                    .doesNotStartWith("tickwheel-shared-");

            long timeoutStart = System.nanoTime();
            assertThatThrownBy(() -> reply.block(Duration.ofSeconds(10)))
                    .hasCauseInstanceOf(TimeoutException.class);
            assertThat(System.nanoTime() - timeoutStart).isGreaterThanOrEqualTo(timeout.toNanos());
        } finally {
            wheel.dispose();
            workers.shutdownNow();
        }
    }

    @Test
    void cancelledSubscription_takesItsTimeoutOffTheWheel_andIntervalTicks() {
        HierarchicalWheelTimer timer = HierarchicalWheelTimer.builder().build();
        ExecutorService workers = Executors.newFixedThreadPool(2);
        Scheduler wheel = Schedulers.fromExecutorService(new WheelScheduledExecutorService(timer, workers), "wheel");
        try {
            Disposable pending = Mono.delay(Duration.ofHours(1), wheel).subscribe();
            assertThat(timer.pendingTimeouts()).isEqualTo(1);
            pending.dispose();
            await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);

            long start = System.nanoTime();
            List<Tick> ticks = Flux.interval(Duration.ofMillis(50), wheel).take(5)
                    .map(index -> new Tick(index, System.nanoTime() - start))
                    .collectList().block(Duration.ofSeconds(10));
            assertThat(ticks).extracting(Tick::index).containsExactly(0L, 1L, 2L, 3L, 4L);
            for (Tick tick : ticks) {
                assertThat(tick.elapsedNanos()).as("tick %d is never early", tick.index())
                        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50 * (tick.index() + 1)));
            }
        } finally {
            wheel.dispose();
            workers.shutdownNow();
            timer.stop();
        }
    }
}
