package io.tickwheel.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;

/**
 * Turns a JDBC failure into the {@link UncheckedIOException} the {@code TimerStore} contract
 * promises, with a message that names the table, the operation, and the likely cause in words a
 * person on call understands (statement timeout, lost connection, server shutting down, ...).
 *
 * <p>Threading: stateless.
 */
final class Failures {

    private Failures() {
    }

    /**
     * Wraps a failure.
     *
     * @param table     the timeouts table
     * @param operation what the store was doing, e.g. "schedule"
     * @param e         the failure
     * @return the exception to throw or to complete a future with
     */
    static UncheckedIOException wrap(final TableNames table, final String operation, final SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = "PostgresStore(" + table + "): " + operation + " failed: " + cause(state)
                + " [SQLState " + (state.isEmpty() ? "none" : state) + "] " + e.getMessage();
        return new UncheckedIOException(message, new IOException(e));
    }

    /**
     * Whether a failure is the connection's (retrying on a fresh connection may succeed).
     *
     * @param e the failure
     * @return true for connection-class SQL states and shutdowns
     */
    static boolean isConnectionLoss(final SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.startsWith("57P"));
    }

    private static String cause(final String state) {
        if (state.equals("57014")) {
            return "statement timeout or cancel (raise statement_timeout for the store's connections)";
        }
        if (state.startsWith("08")) {
            return "connection to PostgreSQL lost or refused";
        }
        if (state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
            return "PostgreSQL is shutting down, restarting, or its backend was terminated";
        }
        if (state.equals("42P01") || state.equals("42703")) {
            return "the table does not have the shape this version expects (missing table or column)";
        }
        if (state.equals("40001") || state.equals("40P01")) {
            return "serialization failure or deadlock";
        }
        if (state.equals("53300")) {
            return "too many connections";
        }
        return "database error";
    }
}
