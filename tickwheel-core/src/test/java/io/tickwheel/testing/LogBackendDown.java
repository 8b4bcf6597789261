package io.tickwheel.testing;

import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * A logging backend that is down: while open, every record a JUL logger publishes throws from the
 * logging call, on the thread that logs, as a broken appender would. The logger's parent handlers
 * are off meanwhile, so the test's own output stays quiet; {@link #close()} puts both back. Holds
 * the logger strongly (JUL keeps loggers weakly, and a collected logger would lose the handler).
 *
 * <p>Threading: open and close on one thread; {@link #publish} runs on whichever thread logs.
 */
public final class LogBackendDown extends Handler implements AutoCloseable {

    private final Logger logger;
    private final boolean parents;
    private final String message;

    /**
     * Makes {@code loggerName}'s records throw {@link IllegalStateException} with {@code message}.
     *
     * @param loggerName the JUL logger
     * @param message the exception's message, for the test to look for
     */
    public LogBackendDown(final String loggerName, final String message) {
        this.logger = Logger.getLogger(loggerName);
        this.message = message;
        this.parents = logger.getUseParentHandlers();
        logger.setUseParentHandlers(false);
        logger.addHandler(this);
    }

    @Override
    public void publish(final LogRecord logRecord) {
        throw new IllegalStateException(message);
    }

    @Override
    public void flush() {
        // nothing buffered
    }

    /** Takes the backend away again and gives the logger back its parent handlers. */
    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setUseParentHandlers(parents);
    }
}
