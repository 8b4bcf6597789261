package io.tickwheel.durable;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The SPI between a {@link DurableTimer} and where its timeouts are kept. One interface serves a
 * private store (the embedded {@link JournalStore}: this process owns every timeout) and a shared
 * one ({@code io.tickwheel.postgres.PostgresStore}: many processes on one table, each owning the
 * slices of time it has leased). The timer never knows which it has.
 *
 * <h2>The two sides</h2>
 *
 * <p><b>What the timer does.</b> {@link DurableTimer.Builder#build()} calls
 * {@link #open(Sink, Clock)} once, before anything else but {@link #maxPayloadBytes()}. It forwards
 * {@code schedule}, {@code cancel}, {@code find}, {@code pendingTimeouts}, {@code failed} and
 * {@code retryFailed} from its own API after checking the arguments. It holds every timeout the
 * store {@link Sink#deliver delivers} in its in-memory wheel until the deadline (by the clock given
 * to {@code open}), drops what the store {@link Sink#revoke revokes}, and when one is due it calls
 * {@link #claim(StoredTimeout)} and runs the handler only if that returns true. After the handler it
 * records the outcome with exactly one of {@link #done}, {@link #retry} (the handler threw and
 * attempts remain) or {@link #fail} (the last attempt threw). Finally it calls {@link #close()}.
 *
 * <p><b>What the store does.</b>
 * <ul>
 *   <li><b>Durability.</b> A future returned by {@code schedule}, {@code cancel} or {@code retry}
 *       completes normally only once the change is on the store's stable storage (as the store's own
 *       configuration defines it, e.g. {@link JournalStore.Builder#fsync}). If it cannot be stored, the
 *       future completes exceptionally with an {@link java.io.UncheckedIOException} (or another
 *       exception saying why) and the change has no effect that anyone can observe later.
 *       {@code done} and {@code fail} may be recorded lazily: losing one re-runs a handler, which
 *       at-least-once delivery allows.</li>
 *   <li><b>Delivery.</b> The store pushes into the sink each pending timeout that this process owns
 *       and whose deadline is near (within a lookahead of the store's choosing, so far timeouts can
 *       stay on disk or in the database), including ones scheduled by other processes into what this
 *       process owns, without waiting for a poll of the timer's. At {@code open} it delivers the
 *       recovered timeouts that are already overdue first, in deadline order. A store re-delivers a
 *       retried timeout when its new deadline comes near. Deliveries of one {@code (type, key)} with
 *       increasing versions replace each other in the timer.</li>
 *   <li><b>Scope.</b> {@code cancel}, {@code find}, {@code pendingTimeouts}, {@code failed},
 *       {@code retryFailed} and a replacing {@code schedule} act on every timeout in the store, not only
 *       those this process holds. When a timeout this process holds is cancelled or replaced
 *       (by this process or by another), or this process stops owning it, the store calls
 *       {@link Sink#revoke} as soon as it learns of it; this frees memory but is not what makes firing
 *       safe: {@link #claim} is.</li>
 *   <li><b>Ownership and fencing.</b> {@link #claim} returns true only if the timeout is still pending
 *       at exactly that {@link StoredTimeout#version() version} and this process still owns it (a
 *       shared store checks that its lease on the timeout's slice is held and not about to expire).
 *       It is called right before every run, so it must be cheap: a shared store answers from the
 *       lease state its renewal thread keeps, not with a round trip per fire. {@code done},
 *       {@code retry} and {@code fail} change the stored timeout only under the same conditions
 *       (same version, ownership still held, checked atomically with the write: a fencing token in the
 *       {@code WHERE} clause of a shared store), so a process that lost its lease while a handler ran
 *       can never overwrite what the new owner did. Such a fenced outcome completes normally and
 *       changes nothing: the new owner runs the timeout again. The timer drops a timeout whose claim
 *       is refused, so a store that refuses only because ownership is momentarily uncertain (a lease
 *       it could not renew in time, while no other process has taken it over) must deliver the
 *       timeout again once it is sure.</li>
 *   <li><b>Replacement.</b> {@code schedule} of a {@code (type, key)} that is pending (or failed)
 *       replaces it with attempt 1 and a new, greater version; the old incarnation can no longer be
 *       claimed.</li>
 *   <li><b>Failed set.</b> {@code fail} moves the timeout to a failed set kept in the store (not
 *       pending, not delivered) until {@code retryFailed} puts it back, due at the given instant, with
 *       attempt 1, or a {@code schedule} of the same key replaces it.</li>
 *   <li><b>Errors and threads.</b> Every method may be called from any thread. {@code find},
 *       {@code pendingTimeouts}, {@code failed} and {@code retryFailed} block and throw
 *       {@link java.io.UncheckedIOException} when the store cannot answer. The sink is called from the
 *       store's own threads (never while holding a lock a caller of the store could wait for), and a
 *       sink that throws must not stop the store's threads. After {@code close} no sink call starts,
 *       and every future the store returned is complete (normally or not).</li>
 * </ul>
 *
 * <p>Threading: thread-safe (each implementation documents how).
 */
public interface TimerStore extends AutoCloseable {

    /**
     * The largest payload this store accepts; the timer refuses larger ones before calling the store.
     *
     * @return the limit in bytes
     */
    int maxPayloadBytes();

    /**
     * Opens the store for one timer: recovers what is stored, delivers the overdue timeouts in
     * deadline order, then keeps delivering what comes due until {@link #close()}. Called once.
     *
     * @param sink  where the store pushes the timeouts this process is to fire
     * @param clock the timer's clock; deadlines and the store's lookahead are read on it
     * @throws java.io.UncheckedIOException if the store cannot be opened or recovered (the message
     *                                      names the file and offset, or the table, at fault)
     * @throws IllegalStateException        if the store was already opened, or another process holds
     *                                      a private store
     */
    void open(Sink sink, Clock clock);

    /**
     * Stores a timeout, replacing a pending or failed one of the same type and key anywhere in the
     * store.
     *
     * @param type     the handler's name (checked by the timer)
     * @param key      the key (checked by the timer)
     * @param payload  the payload (checked by the timer; the store may keep the array)
     * @param deadline when it is due
     * @return completes with the stored incarnation once it is durable
     */
    CompletableFuture<StoredTimeout> schedule(String type, String key, byte[] payload, Instant deadline);

    /**
     * Cancels the pending timeout of that type and key, wherever it is held.
     *
     * @param type the handler's name
     * @param key  the key
     * @return completes once the cancel is durable: true if a pending timeout was cancelled, false if
     *     there was none (failed timeouts are not pending)
     */
    CompletableFuture<Boolean> cancel(String type, String key);

    /**
     * Looks up a pending timeout.
     *
     * @param type the handler's name
     * @param key  the key
     * @return the pending timeout, or empty
     */
    Optional<StoredTimeout> find(String type, String key);

    /**
     * Counts the pending timeouts in the whole store.
     *
     * @return the number of pending timeouts (retries included, failed ones not)
     */
    long pendingTimeouts();

    /**
     * Lists the failed set.
     *
     * @return the timeouts that failed their last attempt, oldest first
     */
    List<StoredTimeout> failed();

    /**
     * Moves a failed timeout back to pending, due at {@code deadline}, with attempt 1.
     *
     * @param type     the handler's name
     * @param key      the key
     * @param deadline when it is due again
     * @return true if a failed timeout of that type and key was moved; durable on return
     */
    boolean retryFailed(String type, String key, Instant deadline);

    /**
     * Confirms, right before its handler runs, that this process may run this incarnation: it is still
     * pending at this version and owned here. Must be cheap (no round trip per call).
     *
     * @param timeout the timeout about to run, as delivered
     * @return true to run it; false if it was cancelled, replaced, completed, or is no longer owned here
     */
    boolean claim(StoredTimeout timeout);

    /**
     * Records that the handler returned: the timeout is no longer pending (unless it was replaced
     * since, or is no longer owned here; then nothing changes).
     *
     * @param timeout the claimed timeout
     * @return completes when recorded (or fenced off)
     */
    CompletableFuture<Void> done(StoredTimeout timeout);

    /**
     * Records a failed attempt that will be retried: the same key with attempt + 1 and a new
     * version, due at {@code nextDeadline}, which the store delivers again when it comes near.
     *
     * @param timeout      the claimed timeout whose handler threw
     * @param nextDeadline when to run it again
     * @return completes with the new incarnation once durable, or with {@code null} if fenced off
     */
    CompletableFuture<StoredTimeout> retry(StoredTimeout timeout, Instant nextDeadline);

    /**
     * Records that the last attempt failed: the timeout moves to the failed set.
     *
     * @param timeout the claimed timeout whose last attempt threw
     * @param reason  a one-line description of the last failure, kept with it
     * @return completes when recorded (or fenced off)
     */
    CompletableFuture<Void> fail(StoredTimeout timeout, String reason);

    /**
     * Stops delivering, completes or fails every outstanding future, flushes, and releases what the
     * store holds (file lock, leases, connections). Pending timeouts stay stored. Idempotent.
     */
    @Override
    void close();

    /**
     * Where a store pushes the timeouts a process is to fire.
     *
     * <p>Threading: thread-safe; called from the store's threads.
     */
    interface Sink {

        /**
         * Hands over a pending timeout to hold until its deadline; replaces an earlier delivery of the
         * same type and key with a lower version, and is ignored if a higher version was delivered.
         *
         * @param timeout the timeout
         */
        void deliver(StoredTimeout timeout);

        /**
         * Tells the timer to drop what it holds of that type and key at {@code version} or lower
         * (cancelled, replaced, or no longer owned here).
         *
         * @param type    the handler's name
         * @param key     the key
         * @param version the highest version to drop
         */
        void revoke(String type, String key, long version);
    }
}
