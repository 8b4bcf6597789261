package io.tickwheel.durable.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a durable timer creates or takes over when it is built, and how it lets go of it all when the
 * build fails half-way.
 *
 * <p>Threading: immutable (static methods only).
 */
public final class OwnedResources {

    /** Handler threads of the pool a timer makes when the builder was given no executor. */
    private static final int HANDLER_THREADS = 4;

    private OwnedResources() {
    }

    /**
     * The handler pool of a timer built without an executor: daemon threads, so a timer that is never
     * closed does not keep the JVM alive.
     *
     * @return a new pool, which the timer shuts down when it closes
     */
    public static ExecutorService handlerPool() {
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(HANDLER_THREADS, r -> {
            Thread t = new Thread(r, "tickwheel-durable-handler-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Closes each resource in turn, whatever the ones before threw, adding what each throws to
     * {@code failure} (the reason they are being closed, which the caller then throws).
     *
     * @param failure   what made the build fail
     * @param resources to close, in order
     */
    public static void closeAll(final Throwable failure, final AutoCloseable... resources) {
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception | Error suppressed) {
                failure.addSuppressed(suppressed);
            }
        }
    }
}
