package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.Timeout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The worker's own count of cancelled timeouts not yet dropped ({@code stale}, which decides when
 * it purges) stays exact when a cancel wins over the expiry of a timeout that a transfer found
 * due. Until 2026-11-29 {@code droppedHere += handOff.transferTo(...)} loaded the field before the
 * call, so the drop that expiry counted inside the call was overwritten and {@code stale} grew by
 * one for good per such race: in a long-lived timer, once the lost drops reached the purge bound,
 * every cancel woke the worker for a purge.
 *
 * <p>The race is made deterministic with the clock: the worker reads it again between a due
 * node's cancel check and its expiry CAS (the transfer placed a node before it), and this test's
 * clock cancels the node right there.
 */
class WorkerStaleCountTest {

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);


    @Test
    void aCancelThatWinsOverAnExpiryFoundDueByATransfer_isCountedAsDropped() throws Exception {
        AtomicReference<Thread> workerThread = new AtomicReference<>();
        AtomicReference<TimingWheel> wheelRef = new AtomicReference<>();
        AtomicReference<Timeout> toCancel = new AtomicReference<>();
        AtomicInteger cancelsInTheClock = new AtomicInteger();
        AtomicBoolean armed = new AtomicBoolean();
        long now = 1_000 * TICK;
        // The worker reads "now"; everyone else reads ten ticks earlier, so what the test schedules
        // with no delay is due ten ticks before the worker's wheel: a transfer finds it due.
        Clock clock = () -> {
            if (Thread.currentThread() != workerThread.get()) {
                return now - 10 * TICK;
            }
            TimingWheel wheel = wheelRef.get();
            // Only on the first read after the transfer placed the far node, that is between the
            // due node's cancel check and its expiry CAS.
            if (wheel != null && wheel.size() == 1 && armed.compareAndSet(true, false)) {
                // The due node's schedule woke us: wait for the test to have its handle.
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (toCancel.get() == null && System.nanoTime() < giveUp) {
                    Thread.onSpinWait();
                }
                Timeout due = toCancel.get();
                if (due != null && due.cancel()) {
                    cancelsInTheClock.incrementAndGet();
                }
            }
            return now;
        };
        TimerCore core = new TimerCore(new TimerOptions(TimerOptions.Kind.HIERARCHICAL, "HierarchicalWheelTimer")
                .tickNanos(TICK).wheelSize(6).clock(clock).threadFactory(r -> {
                    Thread t = new Thread(r, "stale-count-worker");
                    t.setDaemon(true);
                    return t;
                }));
        try {
            TimeoutOwner owner = core.bind(null);
            Worker worker = WorkerInternals.worker(core);
            wheelRef.set(WorkerInternals.wheel(worker));
            workerThread.set(core.workerThread());
            core.start();
            Thread thread = core.workerThread();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> thread.getState() == Thread.State.WAITING);

            // The far node first, so the transfer has placed it when it meets the due one.
            AtomicInteger fired = new AtomicInteger();
            TimeoutNode far = core.schedule(owner, t -> fired.incrementAndGet(), TimeUnit.HOURS.toNanos(1));
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> thread.getState() == Thread.State.TIMED_WAITING);
            armed.set(true);
            TimeoutNode due = core.schedule(owner, t -> fired.incrementAndGet(), 0);
            toCancel.set(due);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> due.isCancelled() || due.isExpired());

            long[] counts = readOnWorker(core, owner, worker);
            assertThat(cancelsInTheClock.get()).as("the cancel won between the check and the expiry CAS").isOne();
            assertThat(fired.get()).as("the cancelled due node never ran").isZero();
            assertThat(counts[0]).as("cancels counted").isEqualTo(1);
            assertThat(counts[1]).as("stale: the cancelled node was dropped, nothing is left").isZero();
            assertThat(counts[2]).as("the wheel holds the far node only").isEqualTo(1);
            assertThat(far.isCancelled() || far.isExpired()).isFalse();
        } finally {
            core.stop();
        }
    }

    /** {cancelled, stale, wheel size}, read by a task on the worker thread (found due by a transfer too). */
    private static long[] readOnWorker(final TimerCore core, final TimeoutOwner owner, final Worker worker)
            throws Exception {
        TimingWheel wheel = WorkerInternals.wheel(worker);
        CompletableFuture<long[]> read = new CompletableFuture<>();
        core.schedule(owner, t -> {
            try {
                long cancelled = core.handOff.cancelledCount();
                long stale = cancelled - WorkerInternals.droppedHere(worker) - wheel.droppedCancelled();
                read.complete(new long[] {cancelled, stale, wheel.size()});
            } catch (ReflectiveOperationException | RuntimeException e) {
                read.completeExceptionally(e);
            }
        }, 0);
        return read.get(10, TimeUnit.SECONDS);
    }
}
