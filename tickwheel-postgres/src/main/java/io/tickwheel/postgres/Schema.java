package io.tickwheel.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Creates the store's tables on first use (if asked) and refuses a table of the wrong shape with a
 * message naming the table and every difference, before anything is read or written.
 *
 * <p>Threading: stateless; called once by {@link PostgresStore.Builder#build()}.
 */
final class Schema {

    private static final Map<String, String> TIMEOUT_COLUMNS = columns(
            "type", "text", "key", "text", "payload", "bytea", "deadline_us", "bigint", "slice", "bigint",
            "attempt", "integer", "version", "bigint", "state", "smallint", "reason", "text");
    private static final Map<String, String> SLICE_COLUMNS = columns(
            "slice", "bigint", "owner", "text", "epoch", "bigint", "lease_until", "timestamp with time zone");

    private Schema() {
    }

    private static Map<String, String> columns(final String... nameType) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameType.length; i += 2) {
            m.put(nameType[i], nameType[i + 1]);
        }
        return m;
    }

    /**
     * Creates (optionally) and checks the tables; returns the notification channel of the table.
     *
     * @param dataSource where the tables live
     * @param names      the names
     * @param sql        the statements
     * @param create     whether to run the DDL first
     * @return the LISTEN/NOTIFY channel, unique to this table in the database
     * @throws SQLException          if the database cannot be reached
     * @throws IllegalStateException naming the table, if it is missing or has the wrong shape
     */
    static String prepare(final DataSource dataSource, final TableNames names, final Statements sql,
            final boolean create) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            // A table that exists is checked before any DDL runs, so a wrong shape is reported as such
            // rather than as the failure of an index on a column it lacks.
            if (tableOid(c, sql, names.timeouts()) != 0) {
                refuseIfWrong(c, names, sql, false);
            }
            if (create) {
                createSchema(c, names, sql);
            }
            long oid = tableOid(c, sql, names.timeouts());
            if (oid == 0) {
                throw new IllegalStateException("PostgresStore: table " + names + " does not exist; apply"
                        + " io/tickwheel/postgres/schema.sql (with the table name replaced) or build with"
                        + " createSchema(true)");
            }
            refuseIfWrong(c, names, sql, true);
            return "tickwheel_" + oid;
        }
    }

    private static void refuseIfWrong(final Connection c, final TableNames names, final Statements sql,
            final boolean withSlices) throws SQLException {
        List<String> problems = new ArrayList<>();
        check(c, sql, names.timeouts(), TIMEOUT_COLUMNS, "key,type", problems);
        if (withSlices) {
            check(c, sql, names.slices(), SLICE_COLUMNS, "slice", problems);
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("PostgresStore: table " + names
                    + " has the wrong shape for tickwheel-postgres: " + String.join("; ", problems)
                    + " (expected the DDL of io/tickwheel/postgres/schema.sql)");
        }
    }

    private static void createSchema(final Connection c, final TableNames names, final Statements sql)
            throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            // Processes starting together would otherwise race on CREATE ... IF NOT EXISTS
            // (a unique violation in pg_type); the advisory lock serialises them.
            try (PreparedStatement lock = c.prepareStatement(sql.schemaLock)) {
                lock.setString(1, "tickwheel:" + names.timeouts());
                lock.execute();
            }
            try (Statement s = c.createStatement()) {
                for (String ddl : Statements.schema(names).split(";", -1)) {
                    if (!ddl.isBlank()) {
                        s.execute(ddl);
                    }
                }
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private static long tableOid(final Connection c, final Statements sql, final String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.tableOid)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void check(final Connection c, final Statements sql, final String table,
            final Map<String, String> expected, final String uniqueKey, final List<String> problems)
            throws SQLException {
        if (tableOid(c, sql, table) == 0) {
            problems.add("table " + table + " is missing");
            return;
        }
        Map<String, String> actual = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql.columns)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    actual.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String type = actual.get(e.getKey());
            if (type == null) {
                problems.add(table + "." + e.getKey() + " is missing (expected " + e.getValue() + ")");
            } else if (!type.equals(e.getValue())) {
                problems.add(table + "." + e.getKey() + " is " + type + ", expected " + e.getValue());
            }
        }
        boolean keyed = false;
        try (PreparedStatement ps = c.prepareStatement(sql.uniqueIndexes)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keyed |= uniqueKey.equals(rs.getString(1)); // column names sorted, comma-separated
                }
            }
        }
        if (!keyed) {
            problems.add(table + " has no primary key or unique index on (" + uniqueKey + ")");
        }
    }
}
