package io.tickwheel.durable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A file channel that passes every call to a real one, after a hook for the calls a test makes
 * fail or slow down: the writes, {@code transferFrom}, {@code truncate} and {@code force}. Each hook
 * does nothing here; {@link FaultyChannel} and {@link GateChannel} override what they inject into.
 * Public so that tests of the internal package can subclass it too (a close that fails). Test code only.
 *
 * <p>Threading: as thread-safe as the channel it wraps and the hooks.
 */
public abstract class DelegatingChannel extends FileChannel {

    private final FileChannel d;

    protected DelegatingChannel(final FileChannel delegate) {
        this.d = delegate;
    }

    /** Before each of the three writes. */
    void beforeWrite() throws IOException {
        // passes
    }

    /** Before {@code transferFrom}. */
    void beforeTransferFrom() throws IOException {
        // passes
    }

    /** Before {@code truncate}. */
    void beforeTruncate() throws IOException {
        // passes
    }

    /** Before {@code force}. */
    void beforeForce() throws IOException {
        // passes
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
        beforeWrite();
        return d.write(src);
    }

    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
        beforeWrite();
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
        beforeTruncate();
        d.truncate(size);
        return this;
    }

    @Override
    public void force(final boolean metaData) throws IOException {
        beforeForce();
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
        beforeTransferFrom();
        return d.transferFrom(src, position, count);
    }

    @Override
    public int read(final ByteBuffer dst, final long position) throws IOException {
        return d.read(dst, position);
    }

    @Override
    public int write(final ByteBuffer src, final long position) throws IOException {
        beforeWrite();
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
