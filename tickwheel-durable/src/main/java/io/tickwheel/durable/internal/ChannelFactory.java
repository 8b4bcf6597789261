package io.tickwheel.durable.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * Opens the journal's file channels: the seam through which tests put a failing disk under the
 * journal (a channel whose write or force throws).
 *
 * <p>Threading: implementations must be thread-safe.
 */
@FunctionalInterface
public interface ChannelFactory {

    /** The real file system. */
    ChannelFactory DEFAULT = FileChannel::open;

    /**
     * Opens a channel.
     *
     * @param path    the file
     * @param options how to open it
     * @return the channel
     * @throws IOException if it cannot be opened
     */
    FileChannel open(Path path, OpenOption... options) throws IOException;
}
