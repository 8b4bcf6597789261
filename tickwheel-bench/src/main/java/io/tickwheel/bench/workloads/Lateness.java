package io.tickwheel.bench.workloads;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Lateness statistics: how long after its deadline each timeout fired, in an HdrHistogram of
 * nanoseconds. Early fires never enter the histogram; they are counted apart, as are missing
 * fires. The histogram travels from the child JVM to the simulator as compressed Base64.
 *
 * <p>Threading: thread-safe (stateless).
 */
public final class Lateness {

    /** The largest lateness recorded: one hour; anything later is recorded as one hour. */
    public static final long HIGHEST_NANOS = 3_600_000_000_000L;
    /** Significant digits kept by every histogram. */
    public static final int DIGITS = 3;

    private static final double MS = 1e6;

    private Lateness() {
    }

    /**
     * Makes an empty histogram with this class's range and precision.
     *
     * @return the histogram
     */
    public static Histogram newHistogram() {
        return new Histogram(HIGHEST_NANOS, DIGITS);
    }

    /**
     * Puts the percentiles (in milliseconds), the counts and the encoded histogram.
     *
     * @param m where to put them
     * @param prefix a prefix for every key ({@code ""} for W3)
     * @param h the lateness of the fires that were not early
     * @param early how many fired before their deadline
     * @param missing how many never fired
     */
    public static void put(final Metrics m, final String prefix, final Histogram h,
            final long early, final long missing) {
        m.put(prefix + "fired", h.getTotalCount() + early);
        m.put(prefix + "early", early);
        m.put(prefix + "missing", missing);
        m.put(prefix + "latenessP50Ms", h.getValueAtPercentile(50) / MS);
        m.put(prefix + "latenessP90Ms", h.getValueAtPercentile(90) / MS);
        m.put(prefix + "latenessP99Ms", h.getValueAtPercentile(99) / MS);
        m.put(prefix + "latenessP999Ms", h.getValueAtPercentile(99.9) / MS);
        m.put(prefix + "latenessP9999Ms", h.getValueAtPercentile(99.99) / MS);
        m.put(prefix + "latenessMaxMs", h.getMaxValue() / MS);
        m.put(prefix + "latenessMeanMs", h.getTotalCount() == 0 ? 0 : h.getMean() / MS);
        m.put(prefix + "histogram", encode(h));
    }

    /**
     * Encodes a histogram as compressed Base64.
     *
     * @param h the histogram
     * @return the text
     */
    public static String encode(final Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * Decodes a histogram made by {@link #encode(Histogram)}.
     *
     * @param text the Base64 text
     * @return the histogram
     * @throws IllegalArgumentException if the text is not an encoded histogram
     */
    public static Histogram decode(final String text) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(text)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not an encoded histogram", e);
        }
    }
}
