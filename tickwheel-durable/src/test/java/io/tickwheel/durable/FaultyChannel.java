package io.tickwheel.durable;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A file channel over a real one whose writes, forces and truncations throw {@link IOException}
 * while {@link #mode} says so: a failing (or full) disk under the journal. Modes: 1, forces fail;
 * 2, writes too; 3, truncations too; -1, only the next force fails (the mode then drops to 0);
 * -2, the next force fails, one more write lands, and then everything fails (mode 3): a process
 * killed right after that write; -4, the next force fails and then everything fails (mode 3): a
 * batch written but not forced, which can be neither zeroed nor truncated.
 */
final class FaultyChannel extends DelegatingChannel {

    private final AtomicInteger mode;

    FaultyChannel(final FileChannel delegate, final AtomicInteger mode) {
        super(delegate);
        this.mode = mode;
    }

    @Override
    void beforeWrite() throws IOException {
        if (mode.compareAndSet(-3, 3)) {
            return;
        }
        if (mode.get() >= 2) {
            throw new IOException("injected: No space left on device");
        }
    }

    @Override
    void beforeTransferFrom() throws IOException {
        beforeWrite();
    }

    @Override
    void beforeTruncate() throws IOException {
        if (mode.get() >= 3) {
            throw new IOException("injected: truncate failed");
        }
    }

    @Override
    void beforeForce() throws IOException {
        if (mode.get() >= 1 || mode.compareAndSet(-1, 0) || mode.compareAndSet(-2, -3) || mode.compareAndSet(-4, 3)) {
            throw new IOException("injected: fsync failed (EIO)");
        }
    }
}
