package io.tickwheel.postgres;

import io.tickwheel.durable.StoredTimeout;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The JDBC edge for the timeouts table: each method runs one statement of {@link Statements} on a
 * connection of its own (or on the caller's, for the transactional {@link #schedule}) and maps the
 * rows to {@link StoredTimeout}s. No protocol decisions are made here.
 *
 * <p>Threading: thread-safe (no mutable state; each call uses its own connection).
 */
final class TimeoutTable {

    private final DataSource dataSource;
    private final Statements sql;
    private final String channel;

    TimeoutTable(final DataSource dataSource, final Statements sql, final String channel) {
        this.dataSource = dataSource;
        this.sql = sql;
        this.channel = channel;
    }

    /** Inserts or replaces; notifies listeners if it replaced one or is due soon. */
    StoredTimeout schedule(final Connection c, final String type, final String key, final byte[] payload,
            final long deadlineMicros, final boolean near) throws SQLException {
        long slice = Notice.sliceOf(deadlineMicros);
        try (PreparedStatement ps = c.prepareStatement(sql.schedule)) {
            ps.setString(1, type);
            ps.setString(2, key);
            ps.setBytes(3, payload);
            ps.setLong(4, deadlineMicros);
            ps.setLong(5, slice);
            ps.setBoolean(6, near);
            ps.setString(7, channel);
            ps.setString(8, Notice.of(slice, type, key));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new StoredTimeout(type, key, payload, Notice.instant(deadlineMicros), 1, rs.getLong(1));
            }
        }
    }

    StoredTimeout schedule(final String type, final String key, final byte[] payload, final long deadlineMicros,
            final boolean near) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            return schedule(c, type, key, payload, deadlineMicros, near);
        }
    }

    boolean cancel(final String type, final String key) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql.cancel)) {
            ps.setString(1, type);
            ps.setString(2, key);
            ps.setString(3, channel);
            ps.setString(4, Notice.suffix(type, key));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    Optional<StoredTimeout> find(final String type, final String key) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql.find)) {
            ps.setString(1, type);
            ps.setString(2, key);
            List<StoredTimeout> rows = rows(ps);
            return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
        }
    }

    long countPending() throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql.countPending);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    List<StoredTimeout> failed() throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql.listFailed)) {
            return rows(ps);
        }
    }

    boolean retryFailed(final String type, final String key, final long deadlineMicros) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql.retryFailed)) {
            ps.setLong(1, deadlineMicros);
            ps.setLong(2, Notice.sliceOf(deadlineMicros));
            ps.setString(3, type);
            ps.setString(4, key);
            ps.setString(5, channel);
            ps.setString(6, Notice.suffix(type, key));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The next incarnation, or null if fenced off (replaced, cancelled, or the slice's epoch moved on). */
    StoredTimeout retry(final StoredTimeout t, final long epoch, final long deadlineMicros, final boolean near)
            throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql.retry)) {
            ps.setLong(1, deadlineMicros);
            ps.setLong(2, Notice.sliceOf(deadlineMicros));
            ps.setString(3, t.type());
            ps.setString(4, t.key());
            ps.setLong(5, t.version());
            ps.setLong(6, epoch);
            ps.setBoolean(7, near);
            ps.setString(8, channel);
            ps.setString(9, Notice.suffix(t.type(), t.key()));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                return new StoredTimeout(t.type(), t.key(), t.payload(), Notice.instant(deadlineMicros),
                        rs.getInt(2), rs.getLong(1));
            }
        }
    }

    /** True if moved to the failed set; false if fenced off. */
    boolean fail(final StoredTimeout t, final long epoch, final String reason) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql.fail)) {
            ps.setString(1, reason);
            ps.setString(2, t.type());
            ps.setString(3, t.key());
            ps.setLong(4, t.version());
            ps.setLong(5, epoch);
            return ps.executeUpdate() == 1;
        }
    }

    /** Deletes the fired timeouts still at their version under their epoch; returns how many. */
    int done(final List<StoredTimeout> fired, final long[] epochs) throws SQLException {
        int n = fired.size();
        String[] types = new String[n];
        String[] keys = new String[n];
        Long[] versions = new Long[n];
        Long[] boxedEpochs = new Long[n];
        for (int i = 0; i < n; i++) {
            types[i] = fired.get(i).type();
            keys[i] = fired.get(i).key();
            versions[i] = fired.get(i).version();
            boxedEpochs[i] = epochs[i];
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql.doneBatch)) {
            ps.setArray(1, c.createArrayOf("text", types));
            ps.setArray(2, c.createArrayOf("text", keys));
            ps.setArray(3, c.createArrayOf("bigint", versions));
            ps.setArray(4, c.createArrayOf("bigint", boxedEpochs));
            return ps.executeUpdate();
        }
    }

    List<StoredTimeout> loadSlices(final Connection c, final Collection<Long> slices, final int timeoutSeconds)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.loadSlices)) {
            ps.setQueryTimeout(timeoutSeconds);
            Array array = c.createArrayOf("bigint", slices.toArray());
            ps.setArray(1, array);
            return rows(ps);
        }
    }

    List<StoredTimeout> loadKeys(final Connection c, final Collection<TimeoutKey> wanted, final int timeoutSeconds)
            throws SQLException {
        List<String> types = new ArrayList<>(wanted.size());
        List<String> keys = new ArrayList<>(wanted.size());
        for (TimeoutKey k : wanted) {
            types.add(k.type());
            keys.add(k.key());
        }
        try (PreparedStatement ps = c.prepareStatement(sql.loadKeys)) {
            ps.setQueryTimeout(timeoutSeconds);
            ps.setArray(1, c.createArrayOf("text", types.toArray()));
            ps.setArray(2, c.createArrayOf("text", keys.toArray()));
            return rows(ps);
        }
    }

    private static List<StoredTimeout> rows(final PreparedStatement ps) throws SQLException {
        List<StoredTimeout> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new StoredTimeout(rs.getString(1), rs.getString(2), rs.getBytes(3),
                        Notice.instant(rs.getLong(4)), rs.getInt(6), rs.getLong(7)));
            }
        }
        return out;
    }
}
