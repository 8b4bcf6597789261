package io.tickwheel.durable.internal;

import io.tickwheel.testing.StackEdge;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The child JVM of {@link SubmitStackOverflowTest}: sweeps {@link GroupCommitWriter#submit} with
 * {@link StackEdge}, each call made while the writer waits for work, so that at some depth the
 * caller's stack overflows inside the queue's hand-off, after the op is in and before the writer is
 * woken. The ops are made beforehand, on a whole stack: made at depth (as {@code schedule} does), an
 * op needs more stack than its hand-off when interpreted, so the overflow would never reach the
 * hand-off, where compiled code, which inlines and sizes frames its own way, may well let it. Then a
 * submit from a thread with a whole stack, and every op the sweep handed over, must complete within
 * 5 s. Interpreted ({@code -Xint}), so that the overflow strikes at every frame of the path. Prints
 * {@code ok} and exits 0, or prints what hung and exits 1.
 */
public final class SubmitStackOverflowChild {

    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");
    private static final long IDLE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long COMPLETE_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final String WRITER = "test-journal-writer";

    private SubmitStackOverflowChild() {
    }

    /**
     * Runs the sweep.
     *
     * @param args the journal directory
     * @throws Exception never expected
     */
    public static void main(final String[] args) throws Exception {
        List<JournalOp> ops = new ArrayList<>();
        for (int i = 0; i < StackEdge.MAX_CALLS; i++) {
            ops.add(JournalOp.schedule("t", "k" + i, new byte[] {1}, FAR));
        }
        List<JournalOp> handedOver = new ArrayList<>(StackEdge.MAX_CALLS);
        int[] counts = new int[2]; // calls, overflows
        boolean ok;
        try (SegmentFiles files = new SegmentFiles(Path.of(args[0]), ChannelFactory.DEFAULT)) {
            Recovery.run(files, new JournalCore());
            GroupCommitWriter w = new GroupCommitWriter(new JournalCore(), files, false, new IdleHost(), WRITER,
                    () -> { });
            w.start(Thread::start);
            Thread writer = writerThread();
            // Once on a whole stack first: a class first initialized at the edge of the stack fails for
            // good (NoClassDefFoundError), which is not what this tests.
            ok = completes(w, JournalOp.schedule("t", "warm-up", new byte[] {1}, FAR), writer, "the warm-up",
                    System.nanoTime() + COMPLETE_NANOS);
            StackEdge.sweepOnNewThread(() -> {
                try {
                    awaitIdle(writer);
                    JournalOp op = ops.get(counts[0]++);
                    w.submit(op);
                    handedOver.add(op);
                } catch (StackOverflowError e) {
                    counts[1]++;
                }
            }, "submit-sweep");
            long deadline = System.nanoTime() + COMPLETE_NANOS;
            ok &= completes(w, JournalOp.schedule("t", "later", new byte[] {1}, FAR), writer, "an op after the sweep",
                    deadline);
            int late = 0;
            for (JournalOp op : handedOver) {
                late += completes(null, op, writer, null, deadline) ? 0 : 1;
            }
            if (late > 0) {
                System.out.println(late + " ops of the sweep did not complete within 5 s");
                ok = false;
            }
            System.out.println(counts[0] + " calls, " + counts[1] + " overflows, " + handedOver.size()
                    + " handed over");
            if (counts[1] == 0) {
                System.out.println("no overflow: the sweep tested nothing");
                ok = false;
            }
            if (!ok) {
                System.out.println("writer " + writer.getState() + " at " + Arrays.toString(writer.getStackTrace()));
                System.out.println("failed");
                System.exit(1); // not closing: a close could hang on the same queue
            }
            w.close(10_000);
        }
        System.out.println("ok");
        System.exit(0);
    }

    /** Waits (a bounded while) until the writer waits for work: the hand-off then has to wake it. */
    private static void awaitIdle(final Thread writer) {
        long end = System.nanoTime() + IDLE_WAIT_NANOS;
        Thread.State s = writer.getState();
        while (s != Thread.State.WAITING && s != Thread.State.TIMED_WAITING && System.nanoTime() < end) {
            Thread.onSpinWait();
            s = writer.getState();
        }
    }

    /** Submits {@code op} if a writer is given, and waits until {@code deadline} for it to complete. */
    private static boolean completes(final GroupCommitWriter w, final JournalOp op, final Thread writer,
            final String what, final long deadline) throws Exception {
        if (w != null) {
            awaitIdle(writer);
            // On a thread of its own: a submit could hang too (on a lock an overflow left held).
            Thread submitter = new Thread(() -> w.submit(op), "submitter");
            submitter.setDaemon(true);
            submitter.start();
        }
        try {
            op.future().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            if (what != null) {
                System.out.println(what + " did not complete within 5 s");
            }
            return false;
        }
    }

    private static Thread writerThread() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(WRITER)) {
                return t;
            }
        }
        throw new IllegalStateException("no journal writer thread");
    }
}
