package io.tickwheel.durable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A file channel over a real one whose writes, forces and truncations throw {@link IOException}
 * while {@link #mode} says so: a failing (or full) disk under the journal. Modes: 1, forces fail;
 * 2, writes too; 3, truncations too; -1, only the next force fails (the mode then drops to 0);
 * -2, the next force fails, one more write lands, and then everything fails (mode 3): a process
 * killed right after that write; -4, the next force fails and then everything fails (mode 3): a
 * batch written but not forced, which can be neither zeroed nor truncated.
 */
final class FaultyChannel extends FileChannel {


    private final FileChannel d;
    private final AtomicInteger mode;

    FaultyChannel(final FileChannel delegate, final AtomicInteger mode) {
        this.d = delegate;
        this.mode = mode;
    }

    private void writeCheck() throws IOException {
        if (mode.compareAndSet(-3, 3)) {
            return;
        }
        if (mode.get() >= 2) {
            throw new IOException("injected: No space left on device");
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
        writeCheck();
        return d.write(src);
    }

    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
        writeCheck();
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
        if (mode.get() >= 3) {
            throw new IOException("injected: truncate failed");
        }
        d.truncate(size);
        return this;
    }

    @Override
    public void force(final boolean metaData) throws IOException {
        if (mode.get() >= 1 || mode.compareAndSet(-1, 0) || mode.compareAndSet(-2, -3) || mode.compareAndSet(-4, 3)) {
            throw new IOException("injected: fsync failed (EIO)");
        }
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
        writeCheck();
        return d.transferFrom(src, position, count);
    }

    @Override
    public int read(final ByteBuffer dst, final long position) throws IOException {
        return d.read(dst, position);
    }

    @Override
    public int write(final ByteBuffer src, final long position) throws IOException {
        writeCheck();
        return d.write(src, position);
    }

    @Override
    public MappedByteBuffer map(final MapMode mapMode, final long position, final long size) throws IOException {
        return d.map(mapMode, position, size);
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
