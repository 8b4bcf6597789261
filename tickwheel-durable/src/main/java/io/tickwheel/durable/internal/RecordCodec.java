package io.tickwheel.durable.internal;

import io.tickwheel.durable.StoredTimeout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.zip.CRC32C;

/**
 * The journal's record format, as pure functions: bytes in, records out, no IO.
 *
 * <p>A record is an 8-byte header, then the checked bytes:
 * <pre>
 *   u24  length        bytes after the header (kind .. end)
 *   u8   lengthCheck   (length's three bytes XOR'ed) ^ 0xA5: a flipped length byte is corruption,
 *                      never mistaken for a torn tail
 *   i32  crc32c        of kind .. end
 *   u8   kind          SCHEDULE, CANCEL, DONE, FAILED or VERSIONS
 *   i64  version
 *   u16  typeLength, type (UTF-8)    VERSIONS: 0, no type
 *   u16  keyLength,  key (UTF-8)     VERSIONS: 0, no key
 *   SCHEDULE and FAILED only:
 *   i64  deadline epoch second, i32 nano, i32 attempt, i32 payloadLength, payload
 *   FAILED only: u16 reasonLength, reason (UTF-8)
 * </pre>
 * All numbers are big-endian. A SCHEDULE record with attempt &gt; 1 is a retry.
 *
 * <p>Threading: immutable (static methods only; buffers belong to the caller).
 */
public final class RecordCodec {

    /** A pending timeout; also a retry and a replacement. */
    public static final byte SCHEDULE = 1;
    /** Cancels the key (its version field names the incarnation cancelled). */
    public static final byte CANCEL = 2;
    /** The handler returned for that version. */
    public static final byte DONE = 3;
    /** The last attempt failed: the full timeout moves to the failed set. */
    public static final byte FAILED = 4;
    /**
     * The highest version the store had given when compaction wrote the segment that opens with it.
     * Compaction drops the records of finished and cancelled timeouts, and with them possibly every
     * record that carried the highest versions; without this mark recovery would give out those
     * versions again, and a key's new incarnation could get a version lower than its old one.
     */
    public static final byte VERSIONS = 5;

    /** Bytes before the checked part. */
    public static final int HEADER = 8;
    /** The largest length the u24 field holds. */
    public static final int MAX_LENGTH = (1 << 24) - 1;
    /** Bytes of a SCHEDULE record besides type, key and payload. */
    public static final int SCHEDULE_OVERHEAD = HEADER + 1 + 8 + 2 + 2 + 8 + 4 + 4 + 4;

    private static final int CHECK_SALT = 0xA5;

    private RecordCodec() {
    }

    /**
     * The encoded size of a SCHEDULE record.
     *
     * @param type    type bytes (UTF-8)
     * @param key     key bytes (UTF-8)
     * @param payload payload length
     * @return bytes
     */
    public static int scheduleSize(final byte[] type, final byte[] key, final int payload) {
        return SCHEDULE_OVERHEAD + type.length + key.length + payload;
    }

    /**
     * Appends a SCHEDULE (or, with a reason, FAILED) record.
     *
     * @param out    where to write, at its position (big-endian, enough room)
     * @param t      the timeout
     * @param type   its type as UTF-8
     * @param key    its key as UTF-8
     * @param reason null for SCHEDULE, the failure for FAILED
     * @return the record's length in bytes
     */
    public static int putTimeout(final ByteBuffer out, final StoredTimeout t, final byte[] type, final byte[] key,
            final byte[] reason) {
        int start = out.position();
        out.position(start + HEADER);
        out.put(reason == null ? SCHEDULE : FAILED).putLong(t.version());
        putBytes(out, type);
        putBytes(out, key);
        Instant deadline = t.deadline();
        long seconds = deadline.getEpochSecond();
        int nanos = deadline.getNano();
        out.putLong(seconds).putInt(nanos).putInt(t.attempt());
        byte[] payload = t.payload();
        out.putInt(payload.length).put(payload);
        if (reason != null) {
            putBytes(out, reason);
        }
        return seal(out, start);
    }

    /**
     * Appends a CANCEL or DONE record.
     *
     * @param out     where to write
     * @param kind    {@link #CANCEL} or {@link #DONE}
     * @param version the incarnation
     * @param type    type bytes
     * @param key     key bytes
     * @return the record's length in bytes
     */
    public static int putMarker(final ByteBuffer out, final byte kind, final long version, final byte[] type,
            final byte[] key) {
        int start = out.position();
        out.position(start + HEADER);
        out.put(kind).putLong(version);
        putBytes(out, type);
        putBytes(out, key);
        return seal(out, start);
    }

    /**
     * Appends a {@link #VERSIONS} record.
     *
     * @param out     where to write
     * @param highest the highest version given so far
     * @return the record's length in bytes
     */
    public static int putVersions(final ByteBuffer out, final long highest) {
        return putMarker(out, VERSIONS, highest, new byte[0], new byte[0]);
    }

    private static void putBytes(final ByteBuffer out, final byte[] bytes) {
        out.putShort((short) bytes.length).put(bytes);
    }

    private static int seal(final ByteBuffer out, final int start) {
        int end = out.position();
        int length = end - start - HEADER;
        CRC32C crc = new CRC32C();
        crc.update(out.duplicate().position(start + HEADER).limit(end));
        out.putInt(start, length << 8 | check(length));
        out.putInt(start + 4, (int) crc.getValue());
        return end - start;
    }

    private static int check(final int length) {
        return ((length >>> 16) ^ (length >>> 8) ^ length ^ CHECK_SALT) & 0xFF;
    }

    /**
     * Reads the record at {@code at}; fills {@code into} if it is whole and its checksum holds.
     *
     * <p>A bad record counts as torn only when nothing but zeros follows what it could have written:
     * a crash mid-write leaves a prefix of the batch and then the end of the file, or the zeros a
     * preallocated segment holds there. If its header's check byte is missing (zero, with zeros after)
     * the header itself was cut; if the header holds, zeros must follow the record's own length.
     * Anything non-zero after it means bytes were written past it, so the record was complete once:
     * corruption.
     *
     * @param in   the bytes (big-endian), its limit is the end of the file
     * @param at   the record's offset in {@code in}
     * @param into the view to fill
     * @return {@link Status#OK}, {@link Status#TORN} (incomplete, or all zeros: what a crash mid-write
     *     leaves, or the preallocated end of a segment) or {@link Status#CORRUPT} (whole but wrong)
     */
    public static Status read(final ByteBuffer in, final int at, final RecordView into) {
        int remaining = in.limit() - at;
        if (remaining < 4) {
            return Status.TORN;
        }
        int word = in.getInt(at);
        int length = word >>> 8;
        if ((word & 0xFF) != check(length) || length < 1 + 8 + 4) {
            // The check byte is the length word's last: once it is written, the length before it is too.
            return allZero(in, at + 3) ? Status.TORN : Status.CORRUPT;
        }
        if (length > remaining - HEADER) {
            return Status.TORN;
        }
        int end = at + HEADER + length;
        CRC32C crc = new CRC32C();
        crc.update(in.duplicate().position(at + HEADER).limit(end));
        if ((int) crc.getValue() != in.getInt(at + 4)) {
            // Half persisted (length written, body not), or zero-filled past a preallocated record: torn.
            return allZero(in, end) ? Status.TORN : Status.CORRUPT;
        }
        return into.parse(in, at, HEADER + length) ? Status.OK : Status.CORRUPT;
    }

    /**
     * Whether every byte from {@code from} to the limit is zero.
     *
     * @param in   the bytes
     * @param from where to start
     * @return true if none is non-zero (also when {@code from} is at or past the limit)
     */
    public static boolean allZero(final ByteBuffer in, final int from) {
        return nonZeroEnd(in, from) <= from;
    }

    /**
     * The offset just after the last non-zero byte at or after {@code from}.
     *
     * @param in   the bytes
     * @param from where to start
     * @return that offset, or {@code from} if every byte from there on is zero
     */
    public static int nonZeroEnd(final ByteBuffer in, final int from) {
        for (int i = in.limit() - 1; i >= from; i--) {
            if (in.get(i) != 0) {
                return i + 1;
            }
        }
        return from;
    }

    /**
     * Decodes a whole SCHEDULE or FAILED record into a timeout.
     *
     * @param v a view filled by {@link #read}
     * @return the timeout
     */
    public static StoredTimeout toTimeout(final RecordView v) {
        return new StoredTimeout(v.type(), v.key(), v.payload(), Instant.ofEpochSecond(v.epochSecond, v.nano),
                v.attempt, v.version);
    }

    /**
     * UTF-8 of a string.
     *
     * @param s the string
     * @return its bytes
     */
    public static byte[] utf8(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A big-endian heap buffer.
     *
     * @param capacity bytes
     * @return the buffer
     */
    public static ByteBuffer buffer(final int capacity) {
        return ByteBuffer.allocate(capacity).order(ByteOrder.BIG_ENDIAN);
    }

    /** What {@link #read} found. */
    public enum Status {
        /** A whole record with a good checksum. */
        OK,
        /** An incomplete record followed by nothing but zeros, or only zeros: the end of the records. */
        TORN,
        /** A whole record that is wrong: refused, never skipped. */
        CORRUPT
    }
}
