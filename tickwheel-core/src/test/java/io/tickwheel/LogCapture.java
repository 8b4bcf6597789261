package io.tickwheel;

import java.text.MessageFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Captures what tickwheel logs through {@link System.Logger}, which the JDK routes to
 * java.util.logging when no other backend is installed. Public for the tests of
 * {@code io.tickwheel.internal}.
 *
 * <p>Holds a strong reference to the JUL logger: java.util.logging keeps loggers weakly, so a test
 * that calls {@code System.gc()} would otherwise lose its handler. Records are kept off the console
 * while capturing (expected stack traces would drown real failures); close it to restore.
 *
 * <p>Threading: thread-safe (records arrive on the worker, Cleaner and executor threads).
 */
public final class LogCapture implements AutoCloseable {

    private final Logger logger;
    private final boolean parentHandlers;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(final LogRecord logRecord) {
            records.add(logRecord);
        }

        @Override
        public void flush() {
            // nothing buffered
        }

        @Override
        public void close() {
            // nothing to release
        }
    };

    private LogCapture(final String loggerName) {
        this.logger = Logger.getLogger(loggerName);
        this.parentHandlers = logger.getUseParentHandlers();
        handler.setLevel(Level.ALL);
        logger.addHandler(handler);
        logger.setUseParentHandlers(false);
    }

    /**
     * Starts capturing the records of one logger.
     *
     * @param loggerName for tickwheel, {@code "io.tickwheel." + the timer's simple class name}
     * @return the capture; close it when done
     */
    public static LogCapture of(final String loggerName) {
        return new LogCapture(loggerName);
    }

    /**
     * Every record's formatted message, at any level, in the order logged.
     *
     * @return the messages
     */
    public List<String> messages() {
        return records.stream().map(LogCapture::message).collect(Collectors.toList());
    }

    /** Every record at {@code level} (ERROR is SEVERE), message formatted, as "LEVEL message [thrown]". */
    List<String> lines(final Level level) {
        return records.stream()
                .filter(logRecord -> logRecord.getLevel().equals(level))
                .map(LogCapture::line)
                .collect(Collectors.toList());
    }

    /** Every record at {@code level} whose formatted message contains {@code text}. */
    List<LogRecord> find(final Level level, final String text) {
        return records.stream()
                .filter(logRecord -> logRecord.getLevel().equals(level) && message(logRecord).contains(text))
                .collect(Collectors.toList());
    }

    static String message(final LogRecord logRecord) {
        Object[] parameters = logRecord.getParameters();
        String raw = String.valueOf(logRecord.getMessage());
        return parameters == null || parameters.length == 0 ? raw : MessageFormat.format(raw, parameters);
    }

    private static String line(final LogRecord logRecord) {
        Throwable thrown = logRecord.getThrown();
        return logRecord.getLevel() + " " + message(logRecord) + (thrown == null ? "" : " [" + thrown + "]");
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(parentHandlers);
    }
}
