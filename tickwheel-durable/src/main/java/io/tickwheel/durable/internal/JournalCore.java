package io.tickwheel.durable.internal;

import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.internal.JournalOp.KeyId;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The journal's state and the rules that change it: the {@link LiveSet} of pending timeouts, the
 * failed set, and the version counter. The writer {@link #decide decides} each op of a batch against
 * this state plus the batch's own earlier ops (an overlay, so nothing is visible before the batch is
 * durable), and {@link #apply applies} the batch only after its force succeeded; recovery
 * {@link #replay replays} records through the same rules.
 *
 * <p>Threading: not thread-safe; every method is called with the store's lock held (the object
 * itself is that lock).
 */
public final class JournalCore {

    /** Bytes of the failed set's records. */
    long failedBytes;
    final LiveSet live = new LiveSet();
    final LinkedHashMap<KeyId, Failed> failed = new LinkedHashMap<>();
    private long nextVersion = 1;
    private final Map<KeyId, Long> overlay = new HashMap<>();
    private final Map<KeyId, StoredTimeout> failedOverlay = new HashMap<>();
    private final List<Integer> doomed = new ArrayList<>();

    /**
     * A failed timeout and where its FAILED record is.
     *
     * @param timeout  the timeout
     * @param location its record
     * @param length   the record's length
     */
    record Failed(StoredTimeout timeout, long location, int length) {
    }

    /**
     * Decides one op of the current batch and encodes its record (if any) into {@code out}.
     *
     * @param op  the op
     * @param out the batch buffer, with room for the record
     */
    void decide(final JournalOp op, final ByteBuffer out) {
        KeyId id = op.keyId();
        long cur = currentVersion(id);
        switch (op.kind) {
            case SCHEDULE -> {
                op.timeout = new StoredTimeout(op.type, op.key, op.payload, op.deadline, 1, nextVersion++);
                writeTimeout(op, id, out, null);
                op.result = op.timeout;
            }
            case CANCEL -> {
                op.result = cur > 0;
                if (cur > 0) {
                    writeMarker(op, id, out, RecordCodec.CANCEL, cur);
                }
            }
            case DONE -> {
                if (cur == op.timeout.version()) {
                    writeMarker(op, id, out, RecordCodec.DONE, cur);
                }
            }
            case RETRY -> {
                StoredTimeout t = op.timeout;
                if (cur == t.version()) {
                    op.timeout = new StoredTimeout(t.type(), t.key(), t.payload(), op.deadline, t.attempt() + 1,
                            nextVersion++);
                    writeTimeout(op, id, out, null);
                    op.result = op.timeout;
                }
            }
            case FAIL -> {
                if (cur == op.timeout.version()) {
                    writeTimeout(op, id, out, RecordCodec.utf8(op.reason));
                }
            }
            case RETRY_FAILED -> {
                StoredTimeout f = failedOverlay.containsKey(id) ? failedOverlay.get(id) : failedTimeout(id);
                op.result = f != null && cur == 0;
                if (f != null && cur == 0) {
                    op.timeout = new StoredTimeout(f.type(), f.key(), f.payload(), op.deadline, 1, nextVersion++);
                    writeTimeout(op, id, out, null);
                }
            }
        }
    }

    /**
     * The bytes the op's record can take at most.
     *
     * @param op the op
     * @return bytes
     */
    int maxSize(final JournalOp op) {
        int payload = op.payload != null ? op.payload.length
                : op.timeout != null ? op.timeout.payloadLength() : 0;
        if (op.kind == JournalOp.Kind.RETRY_FAILED) {
            KeyId id = op.keyId();
            StoredTimeout f = failedOverlay.containsKey(id) ? failedOverlay.get(id) : failedTimeout(id);
            payload = f == null ? 0 : f.payloadLength();
        }
        return RecordCodec.scheduleSize(op.typeBytes, op.keyBytes, payload)
                + (op.reason == null ? 0 : 2 + 3 * op.reason.length());
    }

    private StoredTimeout failedTimeout(final KeyId id) {
        Failed f = failed.get(id);
        return f == null ? null : f.timeout();
    }

    private long currentVersion(final KeyId id) {
        Long v = overlay.get(id);
        if (v != null) {
            return v;
        }
        int s = live.find(id.h1(), id.h2());
        return s < 0 ? 0 : live.version(s);
    }

    private void writeTimeout(final JournalOp op, final KeyId id, final ByteBuffer out, final byte[] reason) {
        op.recordStart = out.position();
        op.recordLength = RecordCodec.putTimeout(out, op.timeout, op.typeBytes, op.keyBytes, reason);
        op.recordKind = reason == null ? RecordCodec.SCHEDULE : RecordCodec.FAILED;
        op.recordVersion = op.timeout.version();
        doom(id);
        overlay.put(id, reason == null ? op.timeout.version() : 0L);
        failedOverlay.put(id, reason == null ? null : op.timeout);
    }

    private void writeMarker(final JournalOp op, final KeyId id, final ByteBuffer out, final byte kind,
            final long version) {
        op.recordStart = out.position();
        op.recordLength = RecordCodec.putMarker(out, kind, version, op.typeBytes, op.keyBytes);
        op.recordKind = kind;
        op.recordVersion = version;
        doom(id);
        overlay.put(id, 0L);
    }

    /** Refuses claims of the incarnation being replaced or cancelled, from the decision on. */
    private void doom(final KeyId id) {
        int s = live.find(id.h1(), id.h2());
        if (s >= 0 && (live.flags(s) & LiveSet.DOOMED) == 0) {
            live.flag(s, LiveSet.DOOMED, true);
            doomed.add(s);
        }
    }

    /**
     * Ends a batch: forgets the overlay; if the batch failed, lifts its dooms and hands each such
     * timeout that is delivered but not claimed back to the scanner.
     *
     * <p>Why hand it back: while the slot was doomed, the wheel may have fired it and its claim been
     * refused; the runner then drops it, so the wheel no longer holds it, yet the slot is still marked
     * delivered, and the scanner skips delivered slots: it would stay pending and never fire in this
     * process. Nothing records whether that refusal happened, so every such slot is put back among the
     * undelivered, and the scanner delivers it again (within a second). That cannot fire it twice:
     * if the wheel still holds it, the delivery carries the same version and the bridge keeps what it
     * holds; if the wheel fired it after the doom was lifted, that run claimed it (CLAIMED until its
     * outcome is applied, and done removes it, retry gives it a new version), so the redelivery's
     * claim is refused. A claimed slot is left alone: its run records the outcome.
     *
     * <p>Ordering relied on: this runs on the writer thread with the store's lock held (this object),
     * as do {@code claim} and the scanner's poll, so a claim is refused by the doom before this lifts
     * it, or sees it lifted; never in between.
     */
    void endBatch(final boolean failedBatch) {
        if (failedBatch) {
            for (int s : doomed) {
                if (live.version(s) >= 0) {
                    live.flag(s, LiveSet.DOOMED, false);
                    byte f = live.flags(s);
                    if ((f & LiveSet.DELIVERED) != 0 && (f & LiveSet.CLAIMED) == 0) {
                        live.undeliver(s);
                    }
                }
            }
        }
        doomed.clear();
        overlay.clear();
        failedOverlay.clear();
    }

    /**
     * Puts a timeout the sink threw on back among the undelivered, so the scanner delivers it again,
     * if its key's slot still holds that incarnation, delivered and not claimed. Delivering it again
     * cannot fire it twice, for the reasons {@link #endBatch} gives (the claim decides); a claimed one
     * was fired after all, and its run records the outcome.
     *
     * @param t the timeout the sink threw on
     */
    void redeliver(final StoredTimeout t) {
        JournalOp probe = JournalOp.cancel(t.type(), t.key());
        int s = live.find(probe.hash1, probe.hash2);
        if (s >= 0 && live.version(s) == t.version()
                && (live.flags(s) & (LiveSet.DELIVERED | LiveSet.CLAIMED)) == LiveSet.DELIVERED) {
            live.undeliver(s);
        }
    }

    /**
     * Applies one durable op to the state.
     *
     * @param op        the op (its record was written at {@code location})
     * @param location  its record's location
     * @param horizonMs deliver a new timeout due before this (epoch ms) at once
     * @param out       collects revokes and deliveries for the sink
     */
    void apply(final JournalOp op, final long location, final long horizonMs, final SinkCalls out) {
        if (op.recordStart < 0) {
            return;
        }
        int s = live.find(op.hash1, op.hash2);
        boolean wasDelivered = s >= 0 && (live.flags(s) & LiveSet.DELIVERED) != 0;
        if (wasDelivered && op.recordKind != RecordCodec.DONE) {
            out.revoke(op.type, op.key, live.version(s));
        }
        KeyId id = op.keyId();
        if (op.recordKind == RecordCodec.SCHEDULE) {
            removeFailed(id);
            StoredTimeout t = op.timeout;
            long ms = millis(t.deadline());
            int slot = live.put(op.hash1, op.hash2, location, t.version(), ms, op.recordLength);
            if (ms <= horizonMs) {
                live.markDelivered(slot);
                out.deliver(t);
            }
        } else {
            if (s >= 0 && live.version(s) == op.recordVersion) {
                live.remove(s);
            }
            if (op.recordKind == RecordCodec.FAILED) {
                removeFailed(id);
                failed.put(id, new Failed(op.timeout, location, op.recordLength));
                failedBytes += op.recordLength;
            }
        }
    }

    /**
     * Replays one record read at recovery.
     *
     * @param v        the record
     * @param location where it was read
     */
    void replay(final RecordView v, final long location) {
        nextVersion = Math.max(nextVersion, v.version() + 1);
        if (v.kind() == RecordCodec.VERSIONS) {
            return;
        }
        long h1 = v.hash1();
        long h2 = v.hash2();
        byte kind = v.kind();
        if (kind == RecordCodec.SCHEDULE) {
            if (!failed.isEmpty()) {
                removeFailed(new KeyId(h1, h2));
            }
            live.put(h1, h2, location, v.version(), v.deadlineMillis(), v.length());
            return;
        }
        int s = live.find(h1, h2);
        if (s >= 0 && (kind == RecordCodec.CANCEL ? live.version(s) <= v.version() : live.version(s) == v.version())) {
            live.remove(s);
        }
        if (kind == RecordCodec.FAILED) {
            KeyId id = new KeyId(h1, h2);
            removeFailed(id);
            failed.put(id, new Failed(RecordCodec.toTimeout(v), location, v.length()));
            failedBytes += v.length();
        }
    }

    private void removeFailed(final KeyId id) {
        Failed f = failed.remove(id);
        if (f != null) {
            failedBytes -= f.length();
        }
    }

    /**
     * The highest version given so far (0 if none): what compaction writes as a
     * {@link RecordCodec#VERSIONS} record, so a restart never gives out a version twice.
     *
     * @return the version
     */
    long highestVersion() {
        return nextVersion - 1;
    }

    /**
     * Epoch milliseconds of an instant, saturated.
     *
     * @param t the instant
     * @return milliseconds
     */
    static long millis(final Instant t) {
        try {
            return t.toEpochMilli();
        } catch (ArithmeticException overflow) {
            return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /**
     * Bytes of records that are still needed.
     *
     * @return live plus failed record bytes
     */
    long neededBytes() {
        return live.liveBytes() + failedBytes;
    }
}
