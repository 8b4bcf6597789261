package io.tickwheel.durable;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects what the WARNING (or worse) records that one java.util.logging logger and its children
 * receive carry as their exception, where {@link System.Logger} goes when no other backend is installed; public for the
 * tests of {@code io.tickwheel.durable.internal}. Holds the logger strongly while listening
 * (java.util.logging keeps loggers weakly). Close it to stop listening.
 *
 * <p>Threading: thread-safe (records arrive on the store's, the wheel's and the retry threads).
 */
public final class WarningLog implements AutoCloseable {

    private final Logger logger;
    private final List<Throwable> thrown = new CopyOnWriteArrayList<>();
    private final Handler handler;

    private WarningLog(final String loggerName, final Predicate<Throwable> filter) {
        logger = Logger.getLogger(loggerName);
        handler = new Handler() {
            @Override
            public void publish(final LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue() && filter.test(r.getThrown())) {
                    thrown.add(r.getThrown());
                }
            }

            @Override
            public void flush() {
                // nothing buffered
            }

            @Override
            public void close() {
                // nothing held
            }
        };
        logger.addHandler(handler);
    }

    /**
     * Starts listening.
     *
     * @param loggerName the logger ("" for all of them)
     * @param filter which WARNING records to keep, by their exception (null if none)
     * @return the log; close it when done
     */
    public static WarningLog on(final String loggerName, final Predicate<Throwable> filter) {
        return new WarningLog(loggerName, filter);
    }

    /**
     * The exceptions of the records kept so far (null for a record without one), in the order
     * logged (a live view).
     *
     * @return the exceptions
     */
    public List<Throwable> thrown() {
        return thrown;
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
