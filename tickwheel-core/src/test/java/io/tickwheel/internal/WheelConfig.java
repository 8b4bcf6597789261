package io.tickwheel.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * One wheel shape for parameterised tests: kind, size, tick length and clock origin. The origins
 * include zero, negative, and values where the clock wraps past {@code Long.MAX_VALUE} within
 * the test, because the wheels must only ever subtract readings.
 */
final class WheelConfig {

    static final long[] ORIGINS = {0L, -7_000_000_000L, Long.MAX_VALUE - 3_000_000L, Long.MIN_VALUE + 11};

    final String kind;
    final int size;
    final long tickNanos;
    final long originNanos;
    private final LongFunction<TimingWheel> factory;

    private WheelConfig(final String kind, final int size, final long tickNanos, final long originNanos,
            final LongFunction<TimingWheel> factory) {
        this.kind = kind;
        this.size = size;
        this.tickNanos = tickNanos;
        this.originNanos = originNanos;
        this.factory = factory;
    }

    TimingWheel newWheel() {
        return factory.apply(originNanos);
    }

    static WheelConfig hashed(final int length, final long tickNanos, final long originNanos) {
        return new WheelConfig("hashed", length, tickNanos, originNanos,
                origin -> new HashedWheel(origin, tickNanos, length));
    }

    static WheelConfig hierarchical(final int bits, final long tickNanos, final long originNanos) {
        return new WheelConfig("hierarchical", 1 << bits, tickNanos, originNanos,
                origin -> new HierarchicalWheel(origin, tickNanos, bits));
    }

    /** Every kind x size x tick x origin combination the structure tests run over. */
    static List<WheelConfig> all() {
        List<WheelConfig> configs = new ArrayList<>();
        long[] ticks = {1L, 7L, 1_000_000L};
        for (long origin : ORIGINS) {
            for (long tick : ticks) {
                for (int length : new int[] {1, 2, 64, 512}) {
                    configs.add(hashed(length, tick, origin));
                }
                for (int bits : new int[] {1, 2, 6}) {
                    configs.add(hierarchical(bits, tick, origin));
                }
            }
        }
        return configs;
    }

    @Override
    public String toString() {
        return kind + "(size=" + size + ", tick=" + tickNanos + "ns, origin=" + originNanos + ")";
    }
}
