package io.tickwheel.durable;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A file channel over a real one that, once {@link Hang#armed}, blocks the next write, transfer or
 * force made by one of the store's threads (picked by name) until the test releases it, then lets it
 * land or fail: a disk that hangs under the writer's force, or under a compaction. Test code only.
 *
 * <p>Threading: as thread-safe as the channel it wraps (the hang's state is atomic or latched).
 */
final class HangingChannel extends DelegatingChannel {

    /** One hang, shared by every channel of a store. */
    static final class Hang {
        final AtomicBoolean armed = new AtomicBoolean();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final String threadPrefix;
        private final boolean fail;
        volatile Thread hung;

        /**
         * A hang for the threads whose name starts with {@code threadPrefix}.
         *
         * @param threadPrefix e.g. {@code "tickwheel-journal-writer"}
         * @param fail whether the released call then throws (else it lands)
         */
        Hang(final String threadPrefix, final boolean fail) {
            this.threadPrefix = threadPrefix;
            this.fail = fail;
        }

        void maybeHang() throws IOException {
            if (!Thread.currentThread().getName().startsWith(threadPrefix) || !armed.compareAndSet(true, false)) {
                return;
            }
            hung = Thread.currentThread();
            entered.countDown();
            boolean interrupted = false;
            try {
                // Like a disk that hangs: interrupts do not end it; the test's release (or a minute) does.
                while (true) {
                    try {
                        if (!release.await(1, TimeUnit.MINUTES)) {
                            throw new IOException("injected hang: never released");
                        }
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            if (fail) {
                throw new IOException("injected: the call hung, then failed");
            }
        }
    }

    private final Hang hang;

    HangingChannel(final FileChannel delegate, final Hang hang) {
        super(delegate);
        this.hang = hang;
    }

    @Override
    void beforeWrite() throws IOException {
        hang.maybeHang();
    }

    @Override
    void beforeTransferFrom() throws IOException {
        hang.maybeHang();
    }

    @Override
    void beforeForce() throws IOException {
        hang.maybeHang();
    }
}
