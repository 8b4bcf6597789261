package io.tickwheel.durable.internal;

import io.tickwheel.durable.StoredTimeout;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * One caller's request to the journal, handed to the writer thread: what to change, and the future
 * that is completed once the change is durable (or has failed).
 *
 * <p>Threading: built by the calling thread and published to the writer by the hand-off queue (a
 * {@code LinkedBlockingQueue}: the put happens-before the take); from then on only the writer reads
 * and writes it, until it completes {@link #future}, which publishes the result to the caller.
 */
public final class JournalOp {

    /** What the op does. */
    public enum Kind {
        /** A new or replacing timeout. */
        SCHEDULE,
        /** Cancel a key. */
        CANCEL,
        /** Record a finished run. */
        DONE,
        /** Record a failed attempt that will be retried. */
        RETRY,
        /** Record the last failed attempt. */
        FAIL,
        /** Move a failed timeout back to pending. */
        RETRY_FAILED
    }

    final Kind kind;
    final String type;
    final String key;
    final byte[] typeBytes;
    final byte[] keyBytes;
    final long hash1;
    final long hash2;
    /** The timeout acted on (SCHEDULE: built by the writer; others: as the caller gave it). */
    StoredTimeout timeout;
    final byte[] payload;
    final Instant deadline;
    final String reason;
    final CompletableFuture<Object> future = new CompletableFuture<>();

    /** Set by the writer: the result to complete with, where the record went, and its size. */
    Object result;
    byte recordKind;
    long recordVersion;
    int recordStart = -1;
    int recordLength;

    JournalOp(final Kind kind, final String type, final String key, final byte[] payload, final Instant deadline,
            final StoredTimeout timeout, final String reason) {
        this.kind = kind;
        this.type = type;
        this.key = key;
        this.typeBytes = RecordCodec.utf8(type);
        this.keyBytes = RecordCodec.utf8(key);
        this.hash1 = KeyHash.hash(typeBytes, keyBytes, KeyHash.SEED1);
        this.hash2 = KeyHash.hash(typeBytes, keyBytes, KeyHash.SEED2);
        this.payload = payload;
        this.deadline = deadline;
        this.timeout = timeout;
        this.reason = reason;
    }

    /**
     * A schedule.
     *
     * @param type     type
     * @param key      key
     * @param payload  payload (kept)
     * @param deadline deadline
     * @return the op
     */
    public static JournalOp schedule(final String type, final String key, final byte[] payload,
            final Instant deadline) {
        return new JournalOp(Kind.SCHEDULE, type, key, payload, deadline, null, null);
    }

    /**
     * A cancel.
     *
     * @param type type
     * @param key  key
     * @return the op
     */
    public static JournalOp cancel(final String type, final String key) {
        return new JournalOp(Kind.CANCEL, type, key, null, null, null, null);
    }

    /**
     * An outcome of a run: DONE, RETRY (with the next deadline) or FAIL (with a reason).
     *
     * @param kind     DONE, RETRY or FAIL
     * @param t        the claimed timeout
     * @param next     RETRY's next deadline, else null
     * @param reason   FAIL's reason, else null
     * @return the op
     */
    public static JournalOp outcome(final Kind kind, final StoredTimeout t, final Instant next, final String reason) {
        return new JournalOp(kind, t.type(), t.key(), null, next, t, reason);
    }

    /**
     * Moving a failed timeout back.
     *
     * @param type     type
     * @param key      key
     * @param deadline when it is due again
     * @return the op
     */
    public static JournalOp retryFailed(final String type, final String key, final Instant deadline) {
        return new JournalOp(Kind.RETRY_FAILED, type, key, null, deadline, null, null);
    }

    /**
     * The future completed once the op is durable.
     *
     * @return the future (its value depends on the kind)
     */
    public CompletableFuture<Object> future() {
        return future;
    }

    /**
     * Completes the future with the result, or with {@code failure}. Runs on the writer thread, which
     * must survive a dependent stage run here that throws (an Error, a stack overflow): logged.
     *
     * @param failure null for success
     */
    void complete(final Throwable failure) {
        try {
            if (failure == null) {
                future.complete(result);
            } else {
                future.completeExceptionally(failure);
            }
        } catch (Throwable e) {
            QuietLog.log(System.getLogger(GroupCommitWriter.class.getName()), Level.WARNING,
                    "a stage chained to a journal future threw on the writer", e);
        }
    }

    /**
     * The exception for an op that is durable (its batch's force returned) but that this process
     * could not apply (an Error in apply, or after it): it takes effect at the next open. Success
     * would be a lie in this process (a cancelled timeout could still fire here), a plain failure a
     * lie after a restart; this exception says both, so the caller can retry (ops are idempotent by
     * key) or restart.
     *
     * @param cause why it was not applied
     * @return the exception
     */
    IllegalStateException durableButNotApplied(final Throwable cause) {
        return new IllegalStateException(kind + " " + type + "/" + key + " is in the journal and takes "
                + "effect when it is next opened, but this process could not apply it", cause);
    }

    KeyId keyId() {
        return new KeyId(hash1, hash2);
    }

    /**
     * A key's identity inside the journal: its 128-bit hash (see {@link KeyHash}).
     *
     * @param h1 first half
     * @param h2 second half
     */
    public record KeyId(long h1, long h2) {
    }
}
