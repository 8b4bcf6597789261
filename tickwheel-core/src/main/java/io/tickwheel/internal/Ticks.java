package io.tickwheel.internal;

/**
 * Tick arithmetic, in one place: a deadline from a delay, the tick a deadline is due in, the tick
 * a reading falls in, and the start of the next tick. Everything works on <em>elapsed</em>
 * nanoseconds (a reading minus the timer's origin), so clocks that wrap past
 * {@link Long#MAX_VALUE} never change a comparison.
 *
 * <p>Threading: immutable (static methods only).
 */
public final class Ticks {

    private Ticks() {
    }

    /**
     * A deadline as nanoseconds since the origin, saturated so a huge delay never wraps into the
     * past; a delay of zero or less means now.
     *
     * @param elapsedNow nanoseconds from the origin to now
     * @param delayNanos the delay
     * @return the elapsed deadline
     */
    public static long elapsedDeadline(final long elapsedNow, final long delayNanos) {
        if (delayNanos <= 0) {
            return elapsedNow;
        }
        long deadline = elapsedNow + delayNanos;
        return deadline < elapsedNow ? Long.MAX_VALUE : deadline;
    }

    /**
     * The reciprocal that turns a division by {@code tickNanos} into a multiply:
     * floor((2^64 - 1) / tickNanos), or 0 for a 1 ns tick. Below 2^63 for any tick of 2 ns or
     * more, so it is a non-negative long.
     */
    static long reciprocal(final long tickNanos) {
        return tickNanos == 1 ? 0 : Long.divideUnsigned(-1L, tickNanos);
    }

    /**
     * floor(elapsed / tickNanos) for {@code elapsed >= 0}, without a division: every node added
     * or cascaded needs one, and a 64-bit division costs several times a multiply. With
     * {@code m = floor((2^64 - 1) / d)} and {@code n < 2^63}, {@code n * m / 2^64} lies within
     * 0.75 below {@code n / d}, so the estimate is the quotient or one less, which the remainder
     * tells apart.
     */
    static long floorTicks(final long elapsed, final long tickNanos, final long reciprocal) {
        if (reciprocal == 0) {
            return elapsed;
        }
        long tick = Math.multiplyHigh(elapsed, reciprocal);
        long remainder = elapsed - tick * tickNanos;
        return remainder >= tickNanos ? tick + 1 : tick;
    }

    /** ceil(elapsed / tickNanos) for {@code elapsed >= 0}: the first tick starting at or after it. */
    static long ceilTicks(final long elapsed, final long tickNanos, final long reciprocal) {
        long tick = floorTicks(elapsed, tickNanos, reciprocal);
        return tick * tickNanos == elapsed ? tick : tick + 1;
    }

    /**
     * Where the worker wakes for a queued node due at {@code elapsedDeadline}: the start of the
     * tick it is due in (so it fires on that tick, not a park later), saturated at
     * {@link Long#MAX_VALUE}.
     *
     * @param elapsedDeadline the node's elapsed deadline
     * @param tickNanos the tick length
     * @return the elapsed start of the first tick at or after the deadline
     */
    static long alignUp(final long elapsedDeadline, final long tickNanos) {
        long boundary = elapsedDeadline / tickNanos * tickNanos;
        return boundary == elapsedDeadline ? elapsedDeadline : elapsedDeadline(boundary, tickNanos);
    }
}
