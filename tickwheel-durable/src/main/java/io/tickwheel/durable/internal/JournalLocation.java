package io.tickwheel.durable.internal;

/**
 * Where a record is in the journal, packed in a {@code long}: the segment number in the top 24 bits,
 * the offset in that segment in the low 40 (segments up to 1 TiB).
 *
 * <p>Threading: immutable (static methods only).
 */
public final class JournalLocation {

    private JournalLocation() {
    }

    /**
     * Packs a location.
     *
     * @param segment the segment number (below 2^23)
     * @param offset  the offset in it (below 2^40)
     * @return the location
     */
    public static long of(final long segment, final long offset) {
        return segment << 40 | offset;
    }

    /**
     * The segment of a location.
     *
     * @param location a location
     * @return the segment number
     */
    public static long segmentOf(final long location) {
        return location >>> 40;
    }

    /**
     * The offset of a location.
     *
     * @param location a location
     * @return the offset
     */
    public static long offsetOf(final long location) {
        return location & ((1L << 40) - 1);
    }
}
