package io.tickwheel.it;

import io.tickwheel.HierarchicalWheelTimer;
import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerTask;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real {@link HierarchicalWheelTimer} whose worker thread has a known name, wrapped so a test can
 * see what a client scheduled on it and where each task ran: the proof that a client's timeout went
 * through tickwheel and not through a timer of its own.
 *
 * <p>Threading: thread-safe (the records are concurrent lists; the wrapped timer is thread-safe).
 */
final class ObservedTimer implements Timer {

    /** One task the wheel ran: its text (for a Netty task, the adapter prints the Netty task), its thread. */
    record Run(String task, String thread, long delayNanos) {
    }

    static final String WORKER = "observed-tickwheel-worker";

    private final Timer inner = HierarchicalWheelTimer.builder()
            .threadFactory(runnable -> new Thread(runnable, WORKER))
            .build();
    private final AtomicInteger scheduled = new AtomicInteger();
    private final List<Run> runs = new CopyOnWriteArrayList<>();

    @Override
    public Timeout newTimeout(final TimerTask task, final long delay, final TimeUnit unit) {
        scheduled.incrementAndGet();
        long delayNanos = unit.toNanos(delay);
        return inner.newTimeout(new TimerTask() {
            @Override
            public void run(final Timeout timeout) throws Exception {
                runs.add(new Run(String.valueOf(task), Thread.currentThread().getName(), delayNanos));
                task.run(timeout);
            }

            @Override
            public void cancelled(final Timeout timeout) {
                task.cancelled(timeout);
            }

            @Override
            public String toString() {
                return String.valueOf(task);
            }
        }, delay, unit);
    }

    @Override
    public Set<Timeout> stop() {
        return inner.stop();
    }

    @Override
    public long pendingTimeouts() {
        return inner.pendingTimeouts();
    }

    int scheduled() {
        return scheduled.get();
    }

    List<Run> runs() {
        return List.copyOf(runs);
    }
}
