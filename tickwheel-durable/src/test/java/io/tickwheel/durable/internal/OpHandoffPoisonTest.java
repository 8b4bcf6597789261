package io.tickwheel.durable.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A close that fails the queued ops takes the writer's stop signal with them and puts it back: the
 * writer, which may have found the queue empty in between and gone to sleep, must be woken by it.
 */
class OpHandoffPoisonTest {

    /** Set once the writer thread exists; the thread reads it after its start (happens-before). */
    private final OpHandoff[] handoff = new OpHandoff[1];

    @Test
    void poisonPutBackByFailQueued_wakesASleepingWriter() throws Exception {
        AtomicReference<JournalOp> taken = new AtomicReference<>();
        CompletableFuture<Long> tookAt = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try {
                taken.set(handoff[0].next());
                tookAt.complete(System.nanoTime());
            } catch (Throwable t) {
                tookAt.completeExceptionally(t);
            }
        }, "op-handoff-poison-writer");
        handoff[0] = new OpHandoff(writer);
        writer.setDaemon(true);
        writer.start();
        long parkedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(writer.getState() == Thread.State.TIMED_WAITING && LockSupport.getBlocker(writer) == handoff[0])) {
            assertThat(System.nanoTime()).as("the writer went to sleep").isLessThan(parkedBy);
            Thread.onSpinWait();
        }
        // What the writer missed: the signal was in a closing thread's hands when it looked, and lands
        // in the queue without a wake-up of its own. failQueued takes it and puts it back.
        JournalOp queued = JournalOp.schedule("t", "k", new byte[0], Instant.EPOCH);
        handoff[0].queue().add(GroupCommitWriter.POISON);
        handoff[0].queue().add(queued);
        long putBackAt = System.nanoTime();
        GroupCommitWriter.failQueued(handoff[0]);

        long took = tookAt.get(10, TimeUnit.SECONDS);
        assertThat(taken.get()).isSameAs(GroupCommitWriter.POISON);
        assertThat(queued.future).isCompletedExceptionally();
        // The writer's own timed sleep is a second: well under that means the put-back woke it.
        assertThat(took - putBackAt).as("ns from the put-back to the writer taking it")
                .isLessThan(OpHandoff.IDLE_PARK_NANOS / 2);
        writer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(writer.isAlive()).isFalse();
    }
}
