package io.tickwheel.bench.durable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;

/**
 * D0: the disk's own limit. A 16 MiB file is preallocated (written and forced), then 4 KiB is
 * written and {@code force(false)} (fdatasync) called 2,000 times, each timed: the force rate and
 * its p50/p99 latency are the floor under any acknowledgement the journal can give.
 *
 * <p>Threading: runs on the calling thread.
 */
final class DiskBench {

    private DiskBench() {
    }

    /** The result of D0. */
    record Result(double forcesPerSecond, double p50Millis, double p99Millis, double maxMillis) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "D0 disk: %.0f force/s, force latency p50 %.2f ms, p99 %.2f ms, "
                    + "max %.2f ms (4 KiB write + fdatasync, 2,000 times, preallocated file)", forcesPerSecond,
                    p50Millis, p99Millis, maxMillis);
        }
    }

    static Result run(final Path dir, final int count) throws IOException {
        Path file = dir.resolve("d0-force.bin");
        int block = 4096;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
            for (long p = 0; p < 16L << 20; p += zeros.capacity()) {
                zeros.clear();
                while (zeros.hasRemaining()) {
                    ch.write(zeros, p + zeros.position());
                }
            }
            ch.force(true);
            ByteBuffer data = ByteBuffer.allocate(block);
            long[] nanos = new long[count];
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                data.clear();
                data.putLong(0, i);
                long t0 = System.nanoTime();
                long at = (long) (i % ((16 << 20) / block)) * block;
                while (data.hasRemaining()) {
                    ch.write(data, at + data.position());
                }
                ch.force(false);
                nanos[i] = System.nanoTime() - t0;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Arrays.sort(nanos);
            return new Result(count / seconds, nanos[count / 2] / 1e6, nanos[(int) (count * 0.99)] / 1e6,
                    nanos[count - 1] / 1e6);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
