package io.tickwheel.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Every SQL statement the store runs, in one place, for one set of {@link TableNames}.
 * {@code T} is the timeouts table, {@code S} its slice lease table, {@code Q} its version
 * sequence; the DDL comes from the shipped resource {@code io/tickwheel/postgres/schema.sql}.
 *
 * <p>Conventions: deadlines are microseconds since the epoch; a slice is
 * {@code floor(deadline_us / 1000000)}; state 0 is pending, 2 failed. Every write that an owner
 * makes under a lease carries the slice's epoch in its {@code WHERE} clause (the fence).
 * Notifications ({@code pg_notify}) are sent in the writing transaction, so listeners hear of a
 * change only once it is committed, and never of a rolled-back one.
 *
 * <p>Threading: immutable.
 */
final class Statements {

    private static final String COLUMNS = "type, key, payload, deadline_us, slice, attempt, version";

    /** Upsert one timeout; parameters: type, key, payload, deadline_us, slice, near, channel, notice. */
    final String schedule;
    /** Delete a pending timeout; parameters: type, key, channel, notice suffix. Returns one row if it was pending. */
    final String cancel;
    /** Parameters: type, key. */
    final String find;
    final String countPending;
    final String listFailed;
    /** Parameters: deadline_us, slice, type, key, channel, notice suffix. */
    final String retryFailed;
    /** Parameters: deadline_us, slice, type, key, version, epoch, near, channel, notice suffix. */
    final String retry;
    /** Parameters: reason, type, key, version, epoch. */
    final String fail;
    /** Parameters: text[] types, text[] keys, bigint[] versions, bigint[] epochs. */
    final String doneBatch;
    /** Parameters: bigint[] slices. */
    final String loadSlices;
    /** Parameters: text[] types, text[] keys. */
    final String loadKeys;
    /** Parameters: horizon slice (twice). Inserts a lease row for each pending slice up to the horizon. */
    final String ensureSlices;
    /** Parameters: horizon slice, limit, owner, lease seconds. Returns (slice, epoch) acquired. */
    final String acquire;
    /** Parameters: lease seconds, bigint[] slices, bigint[] epochs, owner. Returns the slices still held. */
    final String renew;
    /** Parameters: bigint[] slices, bigint[] epochs. Returns the slices deleted (nothing pending in them). */
    final String finish;
    /** Parameters: bigint[] slices, bigint[] epochs. */
    final String release;
    /** Parameters: table name (for to_regclass). */
    final String tableOid;
    /** Parameters: table name. Returns (column, type). */
    final String columns;
    /** Parameters: table name. Returns one row per unique index: its sorted column names. */
    final String uniqueIndexes;
    final String schemaLock;

    Statements(final TableNames names) {
        // A replacement draws its version in DO UPDATE, once it holds the row's lock, so one key's
        // versions rise in commit order. Drawn in VALUES (before the lock) it could be lower than a
        // replacement that committed while this one waited, and the owner would ignore it.
        schedule = sql(names, "WITH up AS (INSERT INTO T AS t (" + COLUMNS + ", state, reason)"
                + " VALUES (?, ?, ?, ?, ?, 1, nextval('Q'), 0, NULL)"
                + " ON CONFLICT (type, key) DO UPDATE SET payload = EXCLUDED.payload,"
                + " deadline_us = EXCLUDED.deadline_us, slice = EXCLUDED.slice, attempt = 1,"
                + " version = nextval('Q'), state = 0, reason = NULL"
                + " RETURNING t.version, NOT (t.xmax = 0) AS replaced)"
                + " SELECT version, CASE WHEN replaced OR ? THEN pg_notify(?, ?) END FROM up");
        cancel = sql(names, "WITH d AS (DELETE FROM T WHERE type = ? AND key = ? AND state = 0 RETURNING slice)"
                + " SELECT pg_notify(?, d.slice || ' ' || ?) FROM d");
        find = sql(names, "SELECT " + COLUMNS + " FROM T WHERE type = ? AND key = ? AND state = 0");
        countPending = sql(names, "SELECT count(*) FROM T WHERE state = 0");
        listFailed = sql(names, "SELECT " + COLUMNS + " FROM T WHERE state = 2 ORDER BY deadline_us, type, key");
        retryFailed = sql(names, "WITH r AS (UPDATE T SET state = 0, attempt = 1, version = nextval('Q'),"
                + " deadline_us = ?, slice = ?, reason = NULL WHERE type = ? AND key = ? AND state = 2 RETURNING slice)"
                + " SELECT pg_notify(?, r.slice || ' ' || ?) FROM r");
        retry = sql(names, "WITH r AS (UPDATE T t SET attempt = t.attempt + 1, version = nextval('Q'),"
                + " deadline_us = ?, slice = ? FROM S s WHERE t.type = ? AND t.key = ? AND t.version = ?"
                + " AND t.state = 0 AND s.slice = t.slice AND s.epoch = ? RETURNING t.version, t.attempt, t.slice)"
                + " SELECT version, attempt, CASE WHEN ? THEN pg_notify(?, r.slice || ' ' || ?) END FROM r");
        fail = sql(names, "UPDATE T t SET state = 2, reason = ? FROM S s WHERE t.type = ? AND t.key = ?"
                + " AND t.version = ? AND t.state = 0 AND s.slice = t.slice AND s.epoch = ?");
        doneBatch = sql(names, "DELETE FROM T t USING unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[])"
                + " AS d(type, key, version, epoch), S s WHERE t.type = d.type AND t.key = d.key"
                + " AND t.version = d.version AND s.slice = t.slice AND s.epoch = d.epoch");
        loadSlices = sql(names, "SELECT " + COLUMNS + " FROM T WHERE slice = ANY(?::bigint[]) AND state = 0"
                + " ORDER BY deadline_us");
        loadKeys = sql(names, "SELECT t.type, t.key, t.payload, t.deadline_us, t.slice, t.attempt, t.version"
                + " FROM T t JOIN unnest(?::text[], ?::text[]) AS k(type, key) ON t.type = k.type AND t.key = k.key"
                + " WHERE t.state = 0");
        // A loose index scan: one probe of the _due index per distinct slice, however many rows.
        ensureSlices = sql(names, "WITH RECURSIVE p(slice) AS ("
                + "(SELECT slice FROM T WHERE state = 0 AND slice <= ? ORDER BY slice LIMIT 1)"
                + " UNION ALL SELECT (SELECT t.slice FROM T t WHERE t.state = 0 AND t.slice > p.slice"
                + " AND t.slice <= ? ORDER BY t.slice LIMIT 1) FROM p WHERE p.slice IS NOT NULL)"
                + " INSERT INTO S (slice) SELECT slice FROM p WHERE slice IS NOT NULL ON CONFLICT (slice) DO NOTHING");
        acquire = sql(names, "WITH c AS (SELECT slice FROM S WHERE slice <= ? AND lease_until < now()"
                + " ORDER BY slice LIMIT ? FOR UPDATE SKIP LOCKED)"
                + " UPDATE S SET owner = ?, epoch = S.epoch + 1, lease_until = now() + make_interval(secs => ?)"
                + " FROM c WHERE S.slice = c.slice RETURNING S.slice, S.epoch");
        renew = sql(names, "UPDATE S SET lease_until = now() + make_interval(secs => ?)"
                + " FROM unnest(?::bigint[], ?::bigint[]) AS o(slice, epoch)"
                + " WHERE S.slice = o.slice AND S.epoch = o.epoch AND S.owner = ? RETURNING S.slice");
        finish = sql(names, "DELETE FROM S USING unnest(?::bigint[], ?::bigint[]) AS o(slice, epoch)"
                + " WHERE S.slice = o.slice AND S.epoch = o.epoch"
                + " AND NOT EXISTS (SELECT 1 FROM T t WHERE t.slice = S.slice AND t.state = 0) RETURNING S.slice");
        release = sql(names, "UPDATE S SET owner = NULL, lease_until = '-infinity'"
                + " FROM unnest(?::bigint[], ?::bigint[]) AS o(slice, epoch)"
                + " WHERE S.slice = o.slice AND S.epoch = o.epoch");
        tableOid = "SELECT to_regclass(?)::oid";
        columns = "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a"
                + " WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped";
        uniqueIndexes = "SELECT string_agg(a.attname, ',' ORDER BY a.attname) FROM pg_index i"
                + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
                + " WHERE i.indrelid = to_regclass(?) AND i.indisunique GROUP BY i.indexrelid";
        schemaLock = "SELECT pg_advisory_xact_lock(hashtext(?))";
    }

    private static String sql(final TableNames names, final String template) {
        // Replace the whole-word placeholders T, S and Q only (never letters inside other words).
        return template.replaceAll("\\bT\\b", names.timeouts())
                .replaceAll("\\bS\\b", names.slices())
                .replaceAll("\\bQ\\b", names.sequence());
    }

    /**
     * The shipped DDL with the default names replaced by {@code names}.
     *
     * @param names the table names
     * @return statements separated by semicolons, comments removed
     */
    static String schema(final TableNames names) {
        String ddl;
        try (InputStream in = Statements.class.getResourceAsStream("schema.sql")) {
            if (in == null) {
                throw new IllegalStateException("resource io/tickwheel/postgres/schema.sql is missing from the jar");
            }
            ddl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read io/tickwheel/postgres/schema.sql", e);
        }
        // The index name takes no schema: set it aside while the table names are replaced.
        String index = "\u0000index\u0000";
        return ddl.replaceAll("--[^\n]*", "")
                .replace("INDEX IF NOT EXISTS tickwheel_timeouts_due", "INDEX IF NOT EXISTS " + index)
                .replace("tickwheel_timeouts", names.timeouts())
                .replace(index, names.base() + "_due");
    }
}
