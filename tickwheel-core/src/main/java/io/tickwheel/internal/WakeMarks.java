package io.tickwheel.internal;

/**
 * One wake-up mark per lane, each in its own padded cell (a subclass rather than a field, so a
 * caller's check loads one object less): the count (of a lane's offers, or of its cancels) whose
 * producer or canceller wakes the sleeping worker. The worker {@link #split splits} what it wants to let pass
 * among the lanes: those whose count moved since its last split share it, and every other lane
 * gets an even split over all lanes, so less than twice the wanted amount passes before some lane
 * wakes it, however many lanes turn busy (see {@link HandOff}'s "Waking the worker").
 *
 * <p>Threading: {@link #reached} and {@link #passed} from any thread, each a volatile load that
 * pairs with the volatile stores of {@link #split}, which only the worker calls; {@code seen} is
 * worker-only.
 */
final class WakeMarks extends PaddedLongs {

    /** Worker-only: each lane's count at the last split. */
    private final long[] seen;

    /**
     * Marks for {@code lanes} lanes, each at {@code initial} until the first split.
     *
     * @param lanes how many lanes, at most 32
     * @param initial every lane's first mark
     */
    WakeMarks(final int lanes, final long initial) {
        super(lanes);
        seen = new long[lanes];
        for (int i = 0; i < lanes; i++) {
            setRelease(i, initial);
        }
    }

    /** Whether {@code count} is exactly {@code lane}'s mark: its one owner wakes the worker. */
    boolean reached(final int lane, final long count) {
        return count == getVolatile(lane);
    }

    /** {@code lane}'s mark (volatile). */
    long mark(final int lane) {
        return getVolatile(lane);
    }

    /** Whether {@code count} is at or past {@code lane}'s mark. */
    boolean passed(final int lane, final long count) {
        return count >= getVolatile(lane);
    }

    /**
     * Sets each lane's mark to its count now, plus its part of {@code amount}, plus {@code offset}
     * (volatile stores). Worker thread only.
     *
     * @param counts each lane's count, read just now
     * @param amount what may pass before a wake-up, split as the class comment says
     * @param offset added to every mark (-1 makes a mark the last count that passes, not the next)
     */
    void split(final long[] counts, final long amount, final long offset) {
        int busy = 0; // bit i: lane i's count moved since the last split
        for (int i = 0; i < seen.length; i++) {
            if (counts[i] != seen[i]) {
                busy |= 1 << i;
                seen[i] = counts[i];
            }
        }
        for (int i = 0; i < seen.length; i++) {
            long ways = (busy >>> i & 1) != 0 ? Integer.bitCount(busy) : seen.length;
            long part = Math.max(1, (amount + ways - 1) / ways);
            setVolatile(i, seen[i] + part + offset);
        }
    }

    /**
     * Sets each lane's mark to {@code counts} (volatile stores), so {@link #passed} holds with no
     * further count, and no count reaches it. Leaves what the next {@link #split} takes for busy
     * lanes alone. Worker thread only.
     *
     * @param counts each lane's count, read just now
     */
    void setTo(final long[] counts) {
        for (int i = 0; i < seen.length; i++) {
            setVolatile(i, counts[i]);
        }
    }
}
