package io.tickwheel.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The test database: {@code TICKWHEEL_PG_URL} (default the local server of the README). A missing
 * server fails the test with a message saying how to get one; it is never skipped.
 */
final class Pg {

    static final String URL = System.getenv().getOrDefault("TICKWHEEL_PG_URL",
            "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

    private Pg() {
    }

    /** A fresh, empty schema for one test; returns its name. */
    static String freshSchema(final String name) {
        String schema = "tw_" + name;
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            s.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            throw unreachable(e);
        }
        return schema;
    }

    static HikariDataSource pool(final String name, final int size) {
        return pool(name, size, null);
    }

    static HikariDataSource pool(final String name, final int size, final String initSql) {
        HikariConfig config = new HikariConfig();
        if (initSql != null) {
            config.setConnectionInitSql(initSql);
        }
        config.setJdbcUrl(URL);
        config.setMaximumPoolSize(size);
        config.setPoolName(name);
        config.setConnectionTimeout(10_000);
        config.addDataSourceProperty("ApplicationName", name);
        try {
            return new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw unreachable(e);
        }
    }

    static void exec(final String sql) {
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw unreachable(e);
        }
    }

    static long queryLong(final String sql) {
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement();
                var rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw unreachable(e);
        }
    }

    /** Terminates every backend whose application_name is {@code name}; returns how many. */
    static long terminate(final String name) {
        return queryLong("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '"
                + name + "'");
    }

    static AssertionError unreachable(final Exception e) {
        return new AssertionError("PostgreSQL is needed by this test and could not be used at " + URL
                + " (set TICKWHEEL_PG_URL, or start the local server: pg_ctlcluster --skip-systemctl-redirect 15"
                + " main start): " + e, e);
    }
}
