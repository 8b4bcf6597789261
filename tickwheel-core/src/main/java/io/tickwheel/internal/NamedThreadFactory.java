package io.tickwheel.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The default worker-thread factory: numbered names that say which timer a thread belongs to
 * in a thread dump.
 *
 * <p>A timer thread lives as long as its timer (the shared one, as long as the JVM) and runs tasks
 * of every caller, so it must carry nothing of the thread that happened to create it: it inherits
 * no {@link InheritableThreadLocal} (a request's context would leak into unrelated tasks), and its
 * context class loader is the system class loader, deliberately, instead of the creator's (a web
 * application's loader would be pinned for the thread's life, and its classes offered to tasks
 * that never asked for them).
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
        // Stack size 0 is the JVM's default; false: no inheritable thread-locals (Java 9+).
        Thread thread = new Thread(null, runnable, prefix + next.getAndIncrement(), 0, false);
        thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
        thread.setDaemon(daemon);
        return thread;
    }
}
