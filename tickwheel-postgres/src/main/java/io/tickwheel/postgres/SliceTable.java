package io.tickwheel.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The JDBC edge for the slice lease table: the statements of the lease protocol, each on the
 * connection the {@link LeaseLoop} passes in. The protocol itself (when to call what, and what a
 * result means) lives in {@link SliceLeases}.
 *
 * <p>Threading: thread-safe (no mutable state); in practice called by the lease thread only.
 */
final class SliceTable {

    private final Statements sql;
    private final String channel;
    private final int timeoutSeconds;

    SliceTable(final Statements sql, final String channel, final int timeoutSeconds) {
        this.sql = sql;
        this.channel = channel;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** Makes sure every slice with pending timeouts up to the horizon has a lease row. */
    void ensure(final Connection c, final long horizonSlice) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.ensureSlices)) {
            ps.setQueryTimeout(timeoutSeconds);
            ps.setLong(1, horizonSlice);
            ps.setLong(2, horizonSlice);
            ps.executeUpdate();
        }
    }

    /**
     * Leases up to {@code limit} free or expired slices up to the horizon, bumping each one's epoch.
     *
     * @return slice → new epoch
     */
    Map<Long, Long> acquire(final Connection c, final long horizonSlice, final int limit, final String owner,
            final double leaseSeconds) throws SQLException {
        Map<Long, Long> got = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql.acquire)) {
            ps.setQueryTimeout(timeoutSeconds);
            ps.setLong(1, horizonSlice);
            ps.setInt(2, limit);
            ps.setString(3, owner);
            ps.setDouble(4, leaseSeconds);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    got.put(rs.getLong(1), rs.getLong(2));
                }
            }
        }
        return got;
    }

    /** Extends the leases still held at these epochs; returns the slices still held. */
    Set<Long> renew(final Connection c, final Map<Long, Long> held, final String owner, final double leaseSeconds)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.renew)) {
            ps.setQueryTimeout(timeoutSeconds);
            ps.setDouble(1, leaseSeconds);
            setPairs(c, ps, 2, held);
            ps.setString(4, owner);
            return slices(ps);
        }
    }

    /** Deletes the lease rows of these slices that hold no pending timeout; returns them. */
    Set<Long> finish(final Connection c, final Map<Long, Long> held) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.finish)) {
            ps.setQueryTimeout(timeoutSeconds);
            setPairs(c, ps, 1, held);
            return slices(ps);
        }
    }

    /** Gives the leases back and tells every listener to acquire now. */
    void release(final Connection c, final Map<Long, Long> held) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.release)) {
            ps.setQueryTimeout(timeoutSeconds);
            setPairs(c, ps, 1, held);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            ps.setString(1, channel);
            ps.setString(2, Notice.RELEASED);
            ps.execute();
        }
    }

    private static void setPairs(final Connection c, final PreparedStatement ps, final int first,
            final Map<Long, Long> held) throws SQLException {
        Long[] slices = new Long[held.size()];
        Long[] epochs = new Long[held.size()];
        int i = 0;
        for (Map.Entry<Long, Long> e : held.entrySet()) {
            slices[i] = e.getKey();
            epochs[i++] = e.getValue();
        }
        ps.setArray(first, c.createArrayOf("bigint", slices));
        ps.setArray(first + 1, c.createArrayOf("bigint", epochs));
    }

    private static Set<Long> slices(final PreparedStatement ps) throws SQLException {
        Set<Long> out = new HashSet<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }
}
