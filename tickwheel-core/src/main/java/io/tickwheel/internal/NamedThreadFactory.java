package io.tickwheel.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The default worker-thread factory: numbered names that say which timer a thread belongs to
 * in a thread dump.
 *
 * <p>Threading: thread-safe (via an atomic counter).
 */
public final class NamedThreadFactory implements ThreadFactory {

    private final String prefix;
    private final boolean daemon;
    private final AtomicInteger next = new AtomicInteger(1);

    /**
     * Creates a factory.
     *
     * @param prefix the thread-name prefix, followed by a number
     * @param daemon whether threads are daemon threads
     */
    public NamedThreadFactory(final String prefix, final boolean daemon) {
        this.prefix = Checks.notNull(prefix, "prefix");
        this.daemon = daemon;
    }

    @Override
    public Thread newThread(final Runnable runnable) {
        Thread thread = new Thread(runnable, prefix + next.getAndIncrement());
        thread.setDaemon(daemon);
        return thread;
    }
}
