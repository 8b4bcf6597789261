package io.tickwheel.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Hazard: the lost wake-up. An idle worker parks with no deadline; a producer does not unpark it
 * on every offer, only when its timeout is due before the worker's published park deadline. The
 * worker publishes its park deadline and then checks for queued work; the producer publishes its
 * work and then loads the park deadline (a Dekker-style handshake, see {@code TimerCore}). If
 * either side used a weaker order than volatile, or skipped a case, both could miss each other:
 * the worker parks forever with a due timeout in its queue, and the timeout fires only when
 * something else happens to wake it, if ever.
 *
 * <p>The actor starts the worker thread, waits until it is entering its loop, and at once
 * schedules a timeout with delay 0, so the offer lands while the worker runs its first pass and
 * decides to park. The other side of the race is the timer's real worker thread. The arbiter
 * waits up to {@value #BOUND_SECONDS} seconds for the task to run (it is due on the next 1 ms
 * tick), then stops the timer. Once one wake-up was lost in a JVM the test has failed, and later
 * samples wait only {@value #BOUND_AFTER_FAILURE_MILLIS} ms, so a broken handshake fails the run
 * in minutes rather than hours.
 *
 * <p>The rule: the task runs, once, and {@code stop()} finds nothing pending. For both timers, in turn.
 * Each sample waits for a real tick, so this test takes only a few thousand samples per run; it
 * complements, not replaces, a long-running stress test of the same handshake.
 *
 * <p>Result: r1 = ran within the bound (1/0), r2 = size of {@code stop()}'s set, r3 = runs.
 */
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the worker woke (or never slept) and ran the task")
@Outcome(expect = FORBIDDEN, desc = "lost wake-up: the due timeout waited in the queue until stop(), or ran twice")
@JCStressTest
@State
public class OfferVsPark {

    static final int BOUND_SECONDS = 5;
    static final int BOUND_AFTER_FAILURE_MILLIS = 20;
    /** Set once a sample timed out in this JVM. */
    private static final AtomicBoolean LOST_ONE = new AtomicBoolean();

    private final WorkerGate gate = new WorkerGate();
    private final Timer timer;
    private final RecordingTask task = new RecordingTask();

    /** Creates a state, on the next configuration in turn (see {@link Turns}). */
    public OfferVsPark() {
        this(TimerKind.next());
    }

    OfferVsPark(final TimerKind kind) {
        timer = kind.create(gate);
        TimerKind.start(timer);
    }

    /** Starts the worker and schedules a due timeout as it decides to park. */
    @Actor
    public void producer() {
        gate.release();
        gate.awaitRunning();
        timer.newTimeout(task, 0, TimeUnit.NANOSECONDS);
    }

    /**
     * Waits for the task, then stops the timer.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final III_Result r) {
        long bound = LOST_ONE.get() ? TimeUnit.MILLISECONDS.toNanos(BOUND_AFTER_FAILURE_MILLIS)
                : TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        long deadline = System.nanoTime() + bound;
        while (task.runs() == 0 && deadline - System.nanoTime() > 0) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
        }
        r.r1 = task.runs() > 0 ? 1 : 0;
        if (r.r1 == 0) {
            LOST_ONE.set(true);
        }
        Set<Timeout> pending = timer.stop();
        r.r2 = pending.size();
        r.r3 = task.runs();
    }
}
