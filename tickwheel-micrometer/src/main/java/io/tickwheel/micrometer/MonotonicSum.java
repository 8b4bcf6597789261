package io.tickwheel.micrometer;

/**
 * A histogram's sum of nanoseconds as Micrometer's {@code FunctionTimer} needs its total: never
 * going down. The core keeps the sum in a {@code long} that wraps past {@link Long#MAX_VALUE}
 * (292 years of nanoseconds: a 100 ms wheel firing 10,000 timeouts a second, each about 50 ms
 * late, gets there in about 213 days), and a registry would read the wrap as a reset or report a
 * negative mean. This adds the difference between successive sums, taken in {@code long}
 * arithmetic (exact across a wrap, as long as one scrape's growth stays below 2^63), to a
 * {@code double}. A read of an older snapshot than the last one (two registries scraping at once)
 * moves nothing.
 *
 * <p>Threading: thread-safe (synchronized; registries may scrape from several threads).
 */
final class MonotonicSum {

    /** The last sum taken into the total; guarded by this. */
    private long last;
    /** Nanoseconds; guarded by this. */
    private double total;
    /** Whether a sum was read; guarded by this. */
    private boolean started;

    /**
     * Takes a newer reading of the sum.
     *
     * @param sum the histogram's sum, perhaps wrapped
     * @return the total so far, in nanoseconds: never less than a value returned before
     */
    synchronized double advance(final long sum) {
        if (!started) {
            // The first reading is the whole sum so far, wrapped already if it is negative.
            started = true;
            last = sum;
            total = sum >= 0 ? sum : sum + 0x1p64;
            return total;
        }
        long growth = sum - last;
        if (growth > 0) {
            total += growth;
            last = sum;
        }
        return total;
    }
}
