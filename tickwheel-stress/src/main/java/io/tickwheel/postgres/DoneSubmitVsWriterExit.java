package io.tickwheel.postgres;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.tickwheel.durable.StoredTimeout;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Hazard: a handler returns after {@code close()} and records its fire ({@link DoneWriter#submit})
 * while the done thread exits. The thread sets {@code exited} (volatile) and then fails what is
 * left; a submit queues its entry and then reads {@code exited}, failing what is left itself if it
 * is set. If neither saw the other, the entry would stay queued with nobody to take it, and the
 * handler's future, which the SPI promises to complete after close, would stay pending for good.
 *
 * <p>Setup: {@code close()} has queued the stop signal; actor 1 is the done thread's whole
 * {@code run()}, actor 2 one submit. There is no database: an entry the thread takes with the stop
 * signal goes to the write, which fails as a driver fault would (the table is absent), and that
 * completes its future too. What is forbidden is a future left pending.
 *
 * <p>Result: r1 = the future is done (1) or pending (0); r2 = how it ended: 1 failed as "closed"
 * (by the thread's exit or by the submit itself), 2 ended by the thread's write, 0 pending.
 */
@JCStressTest
@State
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "queued after the thread's last take: failed as closed")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "taken with the stop signal: ended by the write")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "the entry stayed queued after the thread ended: pending for good")
@Outcome(expect = FORBIDDEN, desc = "anything else")
public class DoneSubmitVsWriterExit {

    private final DoneWriter writer = new DoneWriter(null, null, null, null);
    private final StoredTimeout timeout =
            new StoredTimeout("t", "k", new byte[0], Instant.ofEpochSecond(1_000), 1, 5);
    private CompletableFuture<Void> future;

    /** The store's close: the stop signal is queued before either actor runs. */
    public DoneSubmitVsWriterExit() {
        writer.close();
    }

    /** The done thread: takes until the stop signal, then exits. */
    @Actor
    public void doneThread() {
        writer.run();
    }

    /** A handler that returned after close records its fire. */
    @Actor
    public void lateDone() {
        future = writer.submit(timeout, 1);
    }

    /**
     * How the late fire's future ended.
     *
     * @param r the result
     */
    @Arbiter
    public void arbiter(final II_Result r) {
        if (!future.isDone()) {
            return;
        }
        r.r1 = 1;
        try {
            future.join();
            r.r2 = 3; // completed normally: impossible without a table, and forbidden
        } catch (CompletionException e) {
            String message = String.valueOf(e.getCause().getMessage());
            r.r2 = message.contains("is closed") ? 1 : message.contains("fires failed") ? 2 : 4;
        }
    }
}
