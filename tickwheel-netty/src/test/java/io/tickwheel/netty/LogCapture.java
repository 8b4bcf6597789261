package io.tickwheel.netty;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Captures what a tickwheel timer logs through {@link System.Logger}, which the JDK routes to
 * java.util.logging when no other backend is installed (none is on this module's test class path).
 * Like tickwheel-core's test helper of the same name: it holds a strong reference to the JUL logger
 * (java.util.logging keeps loggers weakly, and a collected logger loses its handler), and keeps the
 * captured records off the console until closed.
 *
 * <p>Threading: thread-safe (records arrive on the worker and on the cancelling thread).
 */
final class LogCapture implements AutoCloseable {

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
     * Starts capturing the records of the logger of a tickwheel timer.
     *
     * @param timerClass the public timer's class: its logger is {@code io.tickwheel.<simple name>}
     * @return the capture; close it when done
     */
    static LogCapture of(final Class<? extends io.tickwheel.Timer> timerClass) {
        return new LogCapture("io.tickwheel." + timerClass.getSimpleName());
    }

    /**
     * Every record at {@code level} that carries exactly {@code thrown} (the same instance).
     *
     * @param level  WARNING for a task's failure
     * @param thrown what the task threw
     * @return the records, in the order logged
     */
    List<LogRecord> find(final Level level, final Throwable thrown) {
        return records.stream()
                .filter(logRecord -> logRecord.getLevel().equals(level) && logRecord.getThrown() == thrown)
                .collect(Collectors.toList());
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(parentHandlers);
    }
}
