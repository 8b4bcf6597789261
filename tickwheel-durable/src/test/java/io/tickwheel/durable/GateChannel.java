package io.tickwheel.durable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
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
final class GateChannel extends FileChannel {

    private final FileChannel d;
    private final AtomicLong gate;

    GateChannel(final FileChannel delegate, final AtomicLong gate) {
        this.d = delegate;
        this.gate = gate;
    }

    private void check() throws IOException {
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

    @Override
    public int read(final ByteBuffer dst) throws IOException {
        return d.read(dst);
    }

    @Override
    public long read(final ByteBuffer[] dsts, final int offset, final int length) throws IOException {
        return d.read(dsts, offset, length);
    }

    @Override
    public int write(final ByteBuffer src) throws IOException {
        check();
        return d.write(src);
    }

    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
        check();
        return d.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
        return d.position();
    }

    @Override
    public FileChannel position(final long newPosition) throws IOException {
        d.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return d.size();
    }

    @Override
    public FileChannel truncate(final long size) throws IOException {
        d.truncate(size);
        return this;
    }

    @Override
    public void force(final boolean metaData) throws IOException {
        d.force(metaData);
    }

    @Override
    public long transferTo(final long position, final long count, final WritableByteChannel target)
            throws IOException {
        return d.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(final ReadableByteChannel src, final long position, final long count)
            throws IOException {
        return d.transferFrom(src, position, count);
    }

    @Override
    public int read(final ByteBuffer dst, final long position) throws IOException {
        return d.read(dst, position);
    }

    @Override
    public int write(final ByteBuffer src, final long position) throws IOException {
        check();
        return d.write(src, position);
    }

    @Override
    public MappedByteBuffer map(final MapMode mode, final long position, final long size) throws IOException {
        return d.map(mode, position, size);
    }

    @Override
    public FileLock lock(final long position, final long size, final boolean shared) throws IOException {
        return d.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(final long position, final long size, final boolean shared) throws IOException {
        return d.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        d.close();
    }
}
