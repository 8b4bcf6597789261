package io.tickwheel.durable.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * Opens the journal's file channels and deletes its segments: the seam through which tests put a
 * failing disk under the journal (a channel whose write or force throws, a delete that fails).
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

    /**
     * Deletes a file if it exists.
     *
     * @param path the file
     * @throws IOException if it exists and cannot be deleted
     */
    default void delete(final Path path) throws IOException {
        Files.deleteIfExists(path);
    }

    /**
     * Deletes a segment just made for a roll that then failed (its zeros or its force). The previous
     * segment stays active, so the new one must not stay behind it: a torn tail in the active one
     * would then not be the journal's last, and recovery would refuse it.
     *
     * @param path the new segment
     * @param failure the roll's failure, which a failed delete is added to
     */
    default void deleteAfter(final Path path, final Throwable failure) {
        try {
            delete(path);
        } catch (IOException again) {
            failure.addSuppressed(again);
        }
    }
}
