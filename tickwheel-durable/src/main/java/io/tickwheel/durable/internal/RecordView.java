package io.tickwheel.durable.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One decoded record, as offsets into the buffer it was read from, so recovery can replay millions
 * of records without making a string or an array per record ({@link #hash1()} and {@link #hash2()}
 * hash type and key straight from the bytes). Valid until the buffer changes.
 *
 * <p>Threading: not thread-safe; confined to the thread that reads the buffer.
 */
public final class RecordView {

    byte kind;
    long version;
    long epochSecond;
    int nano;
    int attempt;
    int length;
    private ByteBuffer buf;
    private int typeAt;
    private int typeLength;
    private int keyAt;
    private int keyLength;
    private int payloadAt;
    private int payloadLength;
    private int reasonAt;
    private int reasonLength;

    boolean parse(final ByteBuffer in, final int at, final int recordLength) {
        buf = in;
        length = recordLength;
        int end = at + recordLength;
        int p = at + RecordCodec.HEADER;
        kind = in.get(p);
        version = in.getLong(p + 1);
        p += 9;
        typeLength = Short.toUnsignedInt(in.getShort(p));
        typeAt = p + 2;
        p = typeAt + typeLength;
        if (p + 2 > end) {
            return false;
        }
        keyLength = Short.toUnsignedInt(in.getShort(p));
        keyAt = p + 2;
        p = keyAt + keyLength;
        if (kind == RecordCodec.VERSIONS) {
            return typeLength == 0 && keyLength == 0 && p == end;
        }
        if (p > end || typeLength == 0 || keyLength == 0) {
            return false;
        }
        if (kind == RecordCodec.CANCEL || kind == RecordCodec.DONE) {
            return p == end;
        }
        if ((kind != RecordCodec.SCHEDULE && kind != RecordCodec.FAILED) || p + 20 > end) {
            return false;
        }
        epochSecond = in.getLong(p);
        nano = in.getInt(p + 8);
        attempt = in.getInt(p + 12);
        payloadLength = in.getInt(p + 16);
        payloadAt = p + 20;
        p = payloadAt + payloadLength;
        if (payloadLength < 0 || p > end || attempt < 1 || nano < 0 || nano > 999_999_999) {
            return false;
        }
        if (kind == RecordCodec.SCHEDULE) {
            return p == end;
        }
        if (p + 2 > end) {
            return false;
        }
        reasonLength = Short.toUnsignedInt(in.getShort(p));
        reasonAt = p + 2;
        return reasonAt + reasonLength == end;
    }

    /**
     * The record's kind.
     *
     * @return one of {@link RecordCodec}'s kinds
     */
    public byte kind() {
        return kind;
    }

    /**
     * The incarnation.
     *
     * @return the version
     */
    public long version() {
        return version;
    }

    /**
     * The deadline, truncated to milliseconds (for the index; the record keeps nanoseconds).
     *
     * @return epoch milliseconds, saturated
     */
    public long deadlineMillis() {
        try {
            return Math.addExact(Math.multiplyExact(epochSecond, 1000L), nano / 1_000_000);
        } catch (ArithmeticException overflow) {
            return epochSecond < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /**
     * The whole record's length, header included.
     *
     * @return bytes
     */
    public int length() {
        return length;
    }

    String type() {
        return string(typeAt, typeLength);
    }

    String key() {
        return string(keyAt, keyLength);
    }

    String reason() {
        return kind == RecordCodec.FAILED ? string(reasonAt, reasonLength) : "";
    }

    byte[] payload() {
        byte[] out = new byte[payloadLength];
        buf.get(payloadAt, out);
        return out;
    }

    private String string(final int at, final int len) {
        byte[] out = new byte[len];
        buf.get(at, out);
        return new String(out, StandardCharsets.UTF_8);
    }

    /**
     * First half of the 128-bit hash of (type, key): see {@link KeyHash}.
     *
     * @return 64 bits
     */
    public long hash1() {
        return KeyHash.hash(buf, typeAt, typeLength, keyAt, keyLength, KeyHash.SEED1);
    }

    /**
     * Second half of the 128-bit hash of (type, key).
     *
     * @return 64 bits
     */
    public long hash2() {
        return KeyHash.hash(buf, typeAt, typeLength, keyAt, keyLength, KeyHash.SEED2);
    }
}
