package io.tickwheel.durable.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Logging from the journal's own threads (the writer, the scanner), where a broken logging backend,
 * or no memory left to log with, must not end the thread: what it was logging is lost, nothing else.
 *
 * <p>Threading: stateless.
 */
final class QuietLog {

    private QuietLog() {
    }

    /**
     * Logs, swallowing whatever the backend throws.
     *
     * @param logger  the logger
     * @param level   the level
     * @param message the message
     * @param thrown  the failure being reported
     */
    static void log(final Logger logger, final Level level, final String message, final Throwable thrown) {
        try {
            logger.log(level, message, thrown);
        } catch (Throwable ignored) {
            // see the class comment
        }
    }
}
