package io.tickwheel.durable.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Hazard: a close whose wait for the writer ran out (a force that hangs) fails what is still queued
 * ({@code GroupCommitWriter.failQueued}), and the writer's stop signal ({@code POISON}, queued by that
 * close) is among it. If {@code failQueued} kept the signal instead of putting it back, the writer,
 * once done with its batch, would sleep in {@code OpHandoff.next()} for good (waking each second to
 * an empty queue): its thread never ends, never lets go
 * of the files ({@link FileHolders}), and the directory stays locked until the process exits. A
 * submit that read {@code closed} as false, queued its op and then saw {@code closed} fails the queue
 * too, racing the close's {@code failQueued}. Every op must end once: written (taken into the
 * writer's batch) or failed, never both, never neither.
 *
 * <p>Modelled on the writer's queue itself, with no writer thread and no files: the actors run the
 * real {@code failQueued} and mirror the writer loop's take and drain ({@code poll} stands in for
 * {@code next()}: null is where the writer would sleep). The queue starts as such a close left it: op1
 * (queued before the close), {@code POISON}, op2 (a submit that had not seen {@code closed} yet). Each
 * nested test races two of the three parties (the close's {@code failQueued}, a late submit of op3
 * with its {@code failQueued}, the writer's next take; two actors, as the 2-core CI box schedules no
 * more); the arbiter runs the third, then the rest of the writer: its next takes, if its batch held no
 * stop signal, until it finds one or would wait for good, and its exit's {@code failQueued}. The model
 * never completes a written op (the real writer does after its write), so an op both taken and failed
 * shows.
 *
 * <p>Result: r1 = how the writer ends: 1 with the batch it was taking, 2 on a later take, 0 never
 * (the signal is lost); r2 = ops written; r3 = ops failed; r4 = ops written and failed, or neither.
 */
@Outcome(id = {"1, 0, 3, 0", "1, 1, 2, 0", "1, 2, 1, 0", "1, 3, 0, 0"}, expect = ACCEPTABLE,
        desc = "the writer took the stop signal with its batch; the rest failed")
@Outcome(id = {"2, 0, 3, 0", "2, 1, 2, 0", "2, 2, 1, 0", "2, 3, 0, 0"}, expect = ACCEPTABLE,
        desc = "failQueued put the stop signal back; the writer's next take finds it")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the stop signal lost: the writer waits forever, holding the files")
@Outcome(expect = FORBIDDEN, desc = "an op written and failed, or never completed")
public abstract class FailQueuedVsWriterStop {

    private static final JournalOp POISON = GroupCommitWriter.POISON;

    /** The writer's hand-off as the real writer has it; no thread sleeps on it here. */
    private final OpHandoff handoff = new OpHandoff(Thread.currentThread());
    private final Queue<JournalOp> queue = handoff.queue();
    private final JournalOp op1 = JournalOp.cancel("t", "1");
    private final JournalOp op2 = JournalOp.cancel("t", "2");
    private final JournalOp op3 = JournalOp.cancel("t", "3");
    /** The writer's batch; only the writer actor and then the arbiter touch it. */
    private final List<JournalOp> batch = new ArrayList<>();
    private int writerEnds;

    /** The queue a timed-out close leaves: op1, the stop signal, a late op2. */
    FailQueuedVsWriterStop() {
        queue.add(op1);
        queue.add(POISON);
        queue.add(op2);
    }

    /** The close, its wait for the writer over ({@code closed} is set): fails what is queued. */
    final void close() {
        GroupCommitWriter.failQueued(handoff);
    }

    /** A submit that saw {@code closed} only after it queued op3. */
    final void lateSubmit() {
        queue.add(op3);
        GroupCommitWriter.failQueued(handoff);
    }

    /** The writer, done with its previous batch, takes the next one as its loop does. */
    final void writerTakes() {
        JournalOp first = queue.poll();
        if (first == POISON) {
            writerEnds = 1;
        } else if (first != null) {
            batch.add(first);
            handoff.drainTo(batch, GroupCommitWriter.MAX_BATCH - 1);
            writerEnds = batch.remove(POISON) ? 1 : 0;
        }
    }

    /** The writer goes on until its stop signal, then fails what is left as it exits; counts each op's end. */
    final void finish(final IIII_Result r) {
        while (writerEnds == 0) {
            JournalOp next = queue.poll();
            if (next == null) {
                break;
            }
            if (next == POISON) {
                writerEnds = 2;
            } else {
                batch.add(next);
            }
        }
        GroupCommitWriter.failQueued(handoff);
        r.r1 = writerEnds;
        for (JournalOp op : new JournalOp[] {op1, op2, op3}) {
            boolean written = batch.contains(op);
            boolean failed = op.future.isCompletedExceptionally();
            if (written && !failed) {
                r.r2++;
            } else if (failed && !written) {
                r.r3++;
            } else {
                r.r4++;
            }
        }
    }

    /** The close's {@code failQueued} vs the writer's take; the late submit comes after. */
    @JCStressTest
    @State
    public static class CloseVsWriter extends FailQueuedVsWriterStop {

        /** The close fails what is queued. */
        @Actor
        public void closing() {
            close();
        }

        /** The writer takes its next batch. */
        @Actor
        public void writer() {
            writerTakes();
        }

        /**
         * The late submit, then the writer's rest.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIII_Result r) {
            lateSubmit();
            finish(r);
        }
    }

    /** A late submit's {@code failQueued} vs the writer's take; the close's comes after. */
    @JCStressTest
    @State
    public static class LateSubmitVsWriter extends FailQueuedVsWriterStop {

        /** The late submit queues op3 and fails what is queued. */
        @Actor
        public void submitter() {
            lateSubmit();
        }

        /** The writer takes its next batch. */
        @Actor
        public void writer() {
            writerTakes();
        }

        /**
         * The close's {@code failQueued}, then the writer's rest.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIII_Result r) {
            close();
            finish(r);
        }
    }

    /** The close's and a late submit's {@code failQueued} at once; the writer takes after. */
    @JCStressTest
    @State
    public static class CloseVsLateSubmit extends FailQueuedVsWriterStop {

        /** The close fails what is queued. */
        @Actor
        public void closing() {
            close();
        }

        /** The late submit queues op3 and fails what is queued. */
        @Actor
        public void submitter() {
            lateSubmit();
        }

        /**
         * The writer's take, then its rest.
         *
         * @param r the result
         */
        @Arbiter
        public void arbiter(final IIII_Result r) {
            writerTakes();
            finish(r);
        }
    }
}
