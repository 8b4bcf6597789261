package io.tickwheel.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A few {@code long} cells, each 128 bytes from the next and from the array's ends, so that a
 * thread writing one cell does not invalidate the cache line another thread reads a neighbour
 * from. Array elements are laid out in index order, unlike fields, so the spacing is guaranteed
 * without padding classes. Not final only so that {@link WakeMarks} can be its cells itself.
 *
 * <p>Accessors are named after the JDK access mode they use; callers document the pairing.
 *
 * <p>Threading: thread-safe per cell, with the ordering of the accessor used.
 */
class PaddedLongs {

    /** 16 longs = 128 bytes: two cache lines, because adjacent-line prefetch pairs them. */
    private static final int SPACING = 16;
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] cells;

    PaddedLongs(final int count) {
        cells = new long[(count + 1) * SPACING];
    }

    private static int at(final int cell) {
        return (cell + 1) * SPACING;
    }

    final long getPlain(final int cell) {
        return cells[at(cell)];
    }

    final long getAcquire(final int cell) {
        return (long) CELLS.getAcquire(cells, at(cell));
    }

    final long getVolatile(final int cell) {
        return (long) CELLS.getVolatile(cells, at(cell));
    }

    final void setRelease(final int cell, final long value) {
        CELLS.setRelease(cells, at(cell), value);
    }

    final void setVolatile(final int cell, final long value) {
        CELLS.setVolatile(cells, at(cell), value);
    }

    final long compareAndExchange(final int cell, final long expected, final long value) {
        return (long) CELLS.compareAndExchange(cells, at(cell), expected, value);
    }

    final long getAndAdd(final int cell, final long delta) {
        return (long) CELLS.getAndAdd(cells, at(cell), delta);
    }
}
