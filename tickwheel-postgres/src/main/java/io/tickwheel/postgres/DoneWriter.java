package io.tickwheel.postgres;

import io.tickwheel.durable.StoredTimeout;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Records fires in bulk: {@code done} calls queue here and one thread deletes each batch with a
 * single fenced statement (every row's version and its slice's epoch in the {@code WHERE} clause),
 * so fired rows never pile up and a busy second costs a few statements, not one per fire. A batch
 * that fails is tried again (three times, with backoff) before its futures fail; losing a done only
 * means the timeout fires again, which at-least-once allows.
 *
 * <p>Threading: {@link #submit} from any thread (a blocking queue); {@link #run()} on one thread
 * ("tickwheel-postgres-done-…"); {@link #close()} from any thread, after which the remaining
 * entries are written (or failed) and the thread ends.
 */
final class DoneWriter implements Runnable {

    private static final int MAX_BATCH = 2_000;

    private record Entry(StoredTimeout timeout, long epoch, CompletableFuture<Void> future) {
    }

    private static final Entry STOP = new Entry(null, 0, null);

    private final TimeoutTable table;
    private final SliceLeases leases;
    private final TableNames names;
    private final Log log;
    private final LinkedBlockingQueue<Entry> queue = new LinkedBlockingQueue<>();

    DoneWriter(final TimeoutTable table, final SliceLeases leases, final TableNames names, final Log log) {
        this.table = table;
        this.leases = leases;
        this.names = names;
        this.log = log;
    }

    /**
     * Set (volatile) once the thread has taken its last entry; a submit that finds it set fails what
     * it queued itself. The thread sets it before its last drain and a submit reads it after its add,
     * so one of the two finds every entry: none is left pending after close (the SPI's promise).
     */
    private volatile boolean exited;

    CompletableFuture<Void> submit(final StoredTimeout t, final long epoch) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        queue.add(new Entry(t, epoch, f));
        if (exited) {
            failLeftovers(); // a handler that returned after close: its timeout fires again elsewhere
        }
        return f;
    }

    void close() {
        queue.add(STOP);
    }

    @Override
    public void run() {
        try {
            writeUntilStopped();
        } finally {
            exited = true;
            failLeftovers();
        }
    }

    private void failLeftovers() {
        for (Entry e = queue.poll(); e != null; e = queue.poll()) {
            if (e.future() != null) { // not STOP
                e.future().completeExceptionally(new IllegalStateException("PostgresStore " + names
                        + " is closed: the fire of " + e.timeout() + " was not recorded; it fires again"));
            }
        }
    }

    private void writeUntilStopped() {
        List<Entry> batch = new ArrayList<>();
        boolean stopping = false;
        while (!stopping) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopping = true;
            }
            queue.drainTo(batch, MAX_BATCH - batch.size());
            if (batch.remove(STOP)) {
                stopping = true;
                queue.drainTo(batch);
                batch.remove(STOP);
            }
            if (!batch.isEmpty()) {
                write(batch);
                batch.clear();
            }
        }
    }

    private void write(final List<Entry> batch) {
        List<StoredTimeout> timeouts = new ArrayList<>(batch.size());
        long[] epochs = new long[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            timeouts.add(batch.get(i).timeout());
            epochs[i] = batch.get(i).epoch();
        }
        SQLException last = null;
        RuntimeException error = null;
        for (int attempt = 0; attempt < 3 && error == null; attempt++) {
            try {
                table.done(timeouts, epochs);
                for (Entry e : batch) {
                    leases.finished(e.timeout());
                    e.future().complete(null);
                }
                return;
            } catch (SQLException e) {
                last = e;
                log.warn("done", "PostgresStore: recording " + batch.size() + " fires failed; retrying", e);
                sleep(100L << attempt);
            } catch (RuntimeException | Error e) {
                // Not the database's answer (a driver fault, out of memory): not retried, and the
                // thread lives on, else this batch's futures and every later one would never complete.
                error = new IllegalStateException("PostgresStore " + names + ": recording " + batch.size()
                        + " fires failed; they fire again", e);
            }
        }
        RuntimeException failure = error != null ? error
                : Failures.wrap(names, "done (" + batch.size() + " fires)", last);
        for (Entry e : batch) {
            e.future().completeExceptionally(failure);
        }
    }

    private static void sleep(final long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
