package io.tickwheel.durable;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A file channel over a real one whose next write is slow: while {@link #gate} is positive, the
 * next write sleeps that many milliseconds and then throws {@link IOException} (a disk that hangs,
 * then fails); while it is negative, the next write sleeps minus that many milliseconds and then
 * lands (a slow disk). Either way the gate drops to 0, so later writes are plain. Reads, forces and
 * truncations are never touched. Test code only.
 *
 * <p>Threading: as thread-safe as the channel it wraps (the gate is an atomic).
 */
final class GateChannel extends DelegatingChannel {

    private final AtomicLong gate;

    GateChannel(final FileChannel delegate, final AtomicLong gate) {
        super(delegate);
        this.gate = gate;
    }

    @Override
    void beforeWrite() throws IOException {
        long ms = gate.getAndSet(0);
        if (ms == 0) {
            return;
        }
        try {
            Thread.sleep(Math.abs(ms));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (ms > 0) {
            throw new IOException("injected: a slow write, then EIO");
        }
    }
}
