package io.tickwheel;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Runs an action inside each ERROR record a logger publishes, on the thread logging it: to make
 * logging throw (a broken backend) or stall. Holds the JUL logger strongly (it keeps loggers weakly).
 *
 * <p>Threading: thread-safe (the action runs on whichever thread logs; the count is atomic).
 */
final class ErrorLogHook extends Handler implements AutoCloseable {

    private final Logger logger;
    private final Runnable action;
    private final AtomicInteger calls = new AtomicInteger();

    ErrorLogHook(final String loggerName, final Runnable action) {
        this.logger = Logger.getLogger(loggerName);
        this.action = action;
        logger.addHandler(this);
    }

    @Override
    public void publish(final LogRecord logRecord) {
        if (Level.SEVERE.equals(logRecord.getLevel())) {
            calls.incrementAndGet();
            action.run();
        }
    }

    /** How many ERROR records reached the action. */
    int calls() {
        return calls.get();
    }

    @Override
    public void flush() {
        // nothing buffered
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
