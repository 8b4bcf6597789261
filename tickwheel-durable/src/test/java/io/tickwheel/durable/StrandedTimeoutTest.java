package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tickwheel.HashedWheelTimer;
import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerTask;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Acknowledged timeouts that a transient fault used to strand in a live process: pending in the
 * store (found, counted) but neither in the wheel nor ever delivered again, so they fired only after
 * a restart. A cancel or a replacing schedule whose write failed while the timeout fell due (its
 * claim was refused while the write was in doubt), and a wheel that refused the timeout (its pending
 * limit, or an {@code Error} from {@code newTimeout}). Each timeout must fire exactly once in this
 * process once the fault has passed; an acknowledged cancel must still keep it from firing.
 */
class StrandedTimeoutTest {

    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");

    @TempDir
    Path dir;

    private final Map<String, AtomicInteger> fires = new ConcurrentHashMap<>();
    private HashedWheelTimer wheel;

    @AfterEach
    void stopWheel() {
        if (wheel != null) {
            wheel.stop();
        }
    }

    private void fire(final DurableTimeout t) {
        fires.computeIfAbsent(t.key(), k -> new AtomicInteger()).incrementAndGet();
    }

    private int fired(final String key) {
        AtomicInteger n = fires.get(key);
        return n == null ? 0 : n.get();
    }

    private JournalStore gated(final AtomicLong gate) {
        return JournalStore.builder(dir).channelFactory((p, o) -> new GateChannel(FileChannel.open(p, o), gate))
                .build();
    }

    /** Waits for every key to fire, then a while longer, and checks each fired exactly once. */
    private void assertEachFiresOnce(final DurableTimer timer, final String... keys) throws InterruptedException {
        await().atMost(Duration.ofSeconds(15)).until(() -> Set.of(keys).stream().allMatch(k -> fired(k) >= 1));
        Thread.sleep(1500);
        for (String k : keys) {
            assertThat(fired(k)).as("fires of " + k + " in this process").isEqualTo(1);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> timer.pendingTimeouts() == 0);
    }

    @Test
    void cancelFailsOnDiskWhileItsTimeoutFallsDue_theTimeoutStillFiresOnce() throws Exception {
        AtomicLong gate = new AtomicLong();
        try (DurableTimer timer = DurableTimer.builder(gated(gate)).handler("t", this::fire).build()) {
            timer.schedule("t", "k", new byte[0], Duration.ofMillis(1500));
            Thread.sleep(300);
            gate.set(3000); // the cancel's write hangs 3 s, across k's deadline, then fails
            CompletableFuture<Boolean> cancel = timer.cancelAsync("t", "k");
            assertThatThrownBy(() -> cancel.get(20, TimeUnit.SECONDS)).hasCauseInstanceOf(UncheckedIOException.class);
            assertThat(fired("k")).as("no fire while the cancel was in doubt").isZero();
            assertThat(timer.stats().claimRefused()).as("k fell due while the cancel's write hung").isPositive();
            assertThat(timer.find("t", "k")).as("the cancel was not acknowledged").isPresent();
            assertEachFiresOnce(timer, "k");
        }
    }

    @Test
    void replacingScheduleFailsOnDiskWhileTheOldFallsDue_theOldStillFiresOnce() throws Exception {
        AtomicLong gate = new AtomicLong();
        try (DurableTimer timer = DurableTimer.builder(gated(gate)).handler("t", this::fire).build()) {
            timer.schedule("t", "k", new byte[] {1}, Duration.ofMillis(1500));
            Thread.sleep(300);
            gate.set(3000);
            CompletableFuture<DurableTimeout> replace = timer.scheduleAsync("t", "k", new byte[] {2}, FAR);
            assertThatThrownBy(() -> replace.get(20, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(UncheckedIOException.class);
            assertThat(timer.stats().claimRefused()).as("k fell due while the replacement's write hung").isPositive();
            assertThat(timer.find("t", "k")).map(t -> t.payload()[0]).as("the first schedule").contains((byte) 1);
            assertEachFiresOnce(timer, "k");
        }
    }

    @Test
    void slowCancelThatSucceedsWhileItsTimeoutFallsDue_theTimeoutNeverFires() throws Exception {
        AtomicLong gate = new AtomicLong();
        try (DurableTimer timer = DurableTimer.builder(gated(gate)).handler("t", this::fire).build()) {
            timer.schedule("t", "k", new byte[0], Duration.ofMillis(1500));
            Thread.sleep(300);
            gate.set(-3000); // the cancel's write hangs 3 s, across k's deadline, then lands
            assertThat(timer.cancelAsync("t", "k").get(20, TimeUnit.SECONDS)).isTrue();
            assertThat(timer.stats().claimRefused()).as("k fell due while the cancel's write hung").isPositive();
            timer.schedule("t", "after", new byte[0], Duration.ofMillis(100));
            assertEachFiresOnce(timer, "after");
            Thread.sleep(1500);
            assertThat(fired("k")).as("an acknowledged cancel's timeout").isZero();
            assertThat(timer.find("t", "k")).isEmpty();
        }
    }

    @Test
    void wheelRefusesAtItsPendingLimit_everyTimeoutStillFiresOnce() throws Exception {
        wheel = HashedWheelTimer.builder().tickDuration(10, TimeUnit.MILLISECONDS).maxPendingTimeouts(3).build();
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).timer(wheel)
                .handler("t", this::fire).build()) {
            for (int i = 0; i < 8; i++) {
                timer.schedule("t", "k" + i, new byte[0], Duration.ofMillis(500));
            }
            assertEachFiresOnce(timer, "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7");
        }
    }

    @Test
    void wheelThrowsAnError_theTimeoutStillFiresOnce() throws Exception {
        wheel = HashedWheelTimer.builder().tickDuration(10, TimeUnit.MILLISECONDS).build();
        AtomicInteger errors = new AtomicInteger();
        Timer flaky = refusingWheel(errors, () -> new OutOfMemoryError("unable to create native thread (injected)"));
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).timer(flaky)
                .handler("t", this::fire).build()) {
            errors.set(3);
            timer.schedule("t", "k", new byte[0], Duration.ofMillis(300));
            timer.schedule("t", "j", new byte[0], Duration.ofMillis(300));
            assertEachFiresOnce(timer, "k", "j");
            assertThat(errors.get()).as("every injected Error was thrown").isLessThanOrEqualTo(0);
        }
    }

    /** A wheel that throws what {@code refusal} supplies on each of the next {@code refusals} calls. */
    private Timer refusingWheel(final AtomicInteger refusals, final Supplier<? extends Throwable> refusal) {
        return new Timer() {
            @Override
            public Timeout newTimeout(final TimerTask task, final long delay, final TimeUnit unit) {
                if (refusals.get() > 0 && refusals.getAndDecrement() > 0) {
                    Throwable t = refusal.get();
                    if (t instanceof Error e) {
                        throw e;
                    }
                    throw (RuntimeException) t;
                }
                return wheel.newTimeout(task, delay, unit);
            }

            @Override
            public Set<Timeout> stop() {
                return wheel.stop();
            }

            @Override
            public long pendingTimeouts() {
                return wheel.pendingTimeouts();
            }
        };
    }

    /**
     * The executor refuses a due timeout's run, and the wheel then refuses the delayed retry of that
     * submit (an Error, or a RuntimeException such as a stopped or full wheel's). Before the fix an
     * Error escaped into the wheel's task and a RuntimeException was logged and dropped: either way
     * the timeout was only in memory and never fired in this process.
     */
    @ParameterizedTest
    @ValueSource(strings = {"error", "runtime"})
    void executorRefusesAndTheWheelRefusesTheRetry_theTimeoutStillFiresOnce(final String kind) throws Exception {
        wheel = HashedWheelTimer.builder().tickDuration(10, TimeUnit.MILLISECONDS).build();
        AtomicInteger wheelRefusals = new AtomicInteger();
        AtomicInteger executorRefusals = new AtomicInteger(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Executor refusingOnce = command -> {
            if (executorRefusals.getAndDecrement() > 0) {
                wheelRefusals.set(2); // the retry's wheel timeout, then the retry thread's first try
                throw new RejectedExecutionException("injected");
            }
            pool.execute(command);
        };
        Timer flaky = refusingWheel(wheelRefusals, () -> kind.equals("error")
                ? new OutOfMemoryError("unable to create native thread (injected)")
                : new IllegalStateException("injected: cannot be started once stopped"));
        try (DurableTimer timer = DurableTimer.builder(JournalStore.open(dir)).timer(flaky).executor(refusingOnce)
                .handler("t", this::fire).build()) {
            timer.schedule("t", "k", new byte[0], Duration.ofMillis(300));
            assertEachFiresOnce(timer, "k");
            assertThat(executorRefusals.get()).as("the executor refused once").isNegative();
            assertThat(wheelRefusals.get()).as("the wheel refused the retry").isLessThanOrEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }
}
