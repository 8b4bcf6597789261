package io.tickwheel.bench.cluster;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * C1, the cluster benchmark: tickwheel-postgres against db-scheduler on the same PostgreSQL, with 1
 * and 3 processes (child JVMs running {@link ClusterNode}). For each system and process count:
 * <ol>
 *   <li><b>schedule</b>: the parent schedules timeouts one hour out from 4 threads (schedules/s), then
 *       the footprint: rows and bytes (tables and indexes) per pending timeout;</li>
 *   <li><b>steady</b>: timeouts due at an even 500/s for 6 s: fire lateness p50/p99/max;</li>
 *   <li><b>burst</b>: 20,000 timeouts due within one second: fires/s (count over the time from the first
 *       deadline to the last fire), and the table's dead tuples and size afterwards (bloat);</li>
 *   <li><b>takeover</b> (3 processes): timeouts due over 12 s; after 4 s the process holding the most
 *       timeouts still to come (tickwheel: the most future slice leases; db-scheduler: the busiest) is
 *       killed with SIGKILL: the worst lateness of any fire after the kill (the victim's timeouts wait for its
 *       lease or heartbeat to expire), and how many never fired within 60 s.</li>
 * </ol>
 * Usage: {@code java -cp tickwheel-bench.jar io.tickwheel.bench.cluster.ClusterBench [scale]} with
 * {@code TICKWHEEL_PG_URL} (default the local test database); scale multiplies every count.
 *
 * <p>Threading: the main thread drives; 4 scheduling threads per phase; one reader per child.
 */
public final class ClusterBench {

    /** Rows in a table named by the parameter (query_to_xml keeps the statement constant). */
    private static final String COUNT_ROWS = "SELECT (xpath('/row/c/text()', query_to_xml("
            + "format('SELECT count(*) AS c FROM %s', ?::regclass), false, true, '')))[1]::text::bigint";
    private static final String TOTAL_SIZE = "SELECT pg_total_relation_size(?::regclass)";
    private static final String DEAD_TUPLES = "SELECT n_dead_tup FROM pg_stat_user_tables WHERE relid = ?::regclass";

    private ClusterBench() {
    }

    /**
     * Runs every system at 1 and 3 processes and prints one table row each.
     *
     * @param args optional scale (default 1.0)
     * @throws Exception if the database or a child fails
     */
    public static void main(final String[] args) throws Exception {
        double scale = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        String url = System.getenv().getOrDefault("TICKWHEEL_PG_URL",
                "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
        List<String> rows = new ArrayList<>();
        try (HikariDataSource ds = Systems.pool(url, "cluster-bench-parent", 8)) {
            for (String system : List.of(Systems.TICKWHEEL, Systems.DB_SCHEDULER)) {
                for (int processes : new int[] {1, 3}) {
                    rows.add(run(ds, url, system, processes, scale));
                }
            }
        }
        System.out.println();
        System.out.println("| system | processes | schedules/s | rows/pending | bytes/pending | steady p50 ms | p99 ms"
                + " | max ms | burst fires/s | dead tuples after burst | table MB after | takeover ms | lost |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
    }

    private static String run(final HikariDataSource ds, final String url, final String system, final int processes,
            final double scale) throws Exception {
        Systems.resetSchema(ds);
        progress(system + " x" + processes + ": starting nodes");
        try (Nodes nodes = new Nodes(system, processes, url); Systems.Scheduling s = Systems.scheduling(system, ds)) {
            nodes.awaitReady();
            int far = (int) (10_000 * scale);
            Instant hourOut = Instant.now().plus(Duration.ofHours(1));
            double rate = far / schedule(s, "far-", far, i -> hourOut.plusMillis(i));
            long rows = 0;
            long bytes = 0;
            for (String table : Systems.tables(system)) {
                rows += query(ds, COUNT_ROWS, table);
                bytes += query(ds, TOTAL_SIZE, table);
            }
            deleteAll(ds, system);
            progress(system + " x" + processes + ": " + Math.round(rate) + " schedules/s; steady phase");

            int steady = (int) (3_000 * scale);
            Instant steadyStart = Instant.now().plus(Duration.ofMillis((long) (steady / rate * 1500) + 2_000));
            schedule(s, "steady-", steady, i -> steadyStart.plusMillis(i * 6_000L / steady));
            Histogram lateness = new Histogram(3);
            awaitFired(nodes, "steady-", steady, Duration.ofSeconds(60));
            for (int i = 0; i < steady; i++) {
                Nodes.Fire f = nodes.fire("steady-" + i);
                if (f != null) {
                    lateness.recordValue(Math.max(0, f.latenessMicros()));
                }
            }

            progress(system + " x" + processes + ": burst phase");
            int burst = (int) (20_000 * scale);
            Instant burstStart = Instant.now().plus(Duration.ofMillis((long) (burst / rate * 1500) + 3_000));
            schedule(s, "burst-", burst, i -> burstStart.plusMillis(i * 1_000L / burst));
            awaitFired(nodes, "burst-", burst, Duration.ofMinutes(2));
            long lastFire = 0;
            for (int i = 0; i < burst; i++) {
                Nodes.Fire f = nodes.fire("burst-" + i);
                lastFire = f == null ? lastFire : Math.max(lastFire, f.fireMillis());
            }
            double firesPerSecond = burst * 1000.0 / Math.max(1, lastFire - burstStart.toEpochMilli());
            Thread.sleep(1_500); // let the statistics collector catch up
            String main = Systems.tables(system)[0];
            long dead = query(ds, DEAD_TUPLES, main);
            long size = query(ds, TOTAL_SIZE, main);

            String takeover = "-";
            String lost = "-";
            if (processes > 1) {
                progress(system + " x" + processes + ": takeover phase");
                int n = (int) (3_000 * scale);
                Instant start = Instant.now().plus(Duration.ofMillis((long) (n / rate * 1500) + 2_000));
                schedule(s, "takeover-", n, i -> start.plusMillis(i * 12_000L / n));
                Thread.sleep(Math.max(0, Duration.between(Instant.now(), start).toMillis()) + 4_000);
                // The victim must hold timeouts still to come, or there is nothing to take over: for
                // tickwheel the process leasing the most future slices, for db-scheduler (which picks
                // executions only when due) the one that fired the most so far.
                String victim = nodes.kill(system.equals(Systems.TICKWHEEL) ? biggestSliceHolder(ds) : null);
                long killed = System.currentTimeMillis();
                progress(system + ": killed " + victim);
                awaitFired(nodes, "takeover-", n, Duration.ofSeconds(60));
                long worst = 0;
                int missing = 0;
                for (int i = 0; i < n; i++) {
                    Nodes.Fire f = nodes.fire("takeover-" + i);
                    if (f == null) {
                        missing++;
                    } else if (f.fireMillis() > killed) {
                        long deadline = start.toEpochMilli() + i * 12_000L / n;
                        worst = Math.max(worst, f.fireMillis() - Math.max(deadline, killed));
                    }
                }
                takeover = Long.toString(worst);
                lost = Integer.toString(missing);
            }
            return String.format("| %s | %d | %.0f | %.2f | %.0f | %.1f | %.1f | %.1f | %.0f | %d | %.1f | %s | %s |",
                    system, processes, rate, (double) rows / far, (double) bytes / far,
                    lateness.getValueAtPercentile(50) / 1000.0, lateness.getValueAtPercentile(99) / 1000.0,
                    lateness.getMaxValue() / 1000.0, firesPerSecond, dead, size / 1e6, takeover, lost)
                    + " dup " + nodes.duplicates();
        }
    }

    private interface DeadlineOf {
        Instant at(int i);
    }

    /** Schedules {@code n} timeouts from 4 threads; returns the seconds it took. */
    private static double schedule(final Systems.Scheduling s, final String prefix, final int n, final DeadlineOf at)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        long t0 = System.nanoTime();
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int first = t;
                parts.add(pool.submit(() -> {
                    for (int i = first; i < n; i += 4) {
                        s.schedule(prefix + i, new byte[16], at.at(i));
                    }
                }));
            }
            for (Future<?> f : parts) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private static void awaitFired(final Nodes nodes, final String prefix, final int n, final Duration max)
            throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        int next = 0;
        while (next < n && System.nanoTime() < end) {
            if (nodes.fire(prefix + next) != null) {
                next++;
            } else {
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
        // Check every key: they fire in deadline order only roughly.
        while (System.nanoTime() < end) {
            int missing = 0;
            for (int i = 0; i < n; i++) {
                missing += nodes.fire(prefix + i) == null ? 1 : 0;
            }
            if (missing == 0) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    /** Runs one of the constant queries above with a table name as its parameter. */
    /** The node leasing the most slices not yet past, or null if none does. */
    private static String biggestSliceHolder(final HikariDataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT owner FROM " + Systems.TW_TABLE + "_slices"
                        + " WHERE slice >= floor(extract(epoch FROM now())) AND lease_until > now()"
                        + " GROUP BY owner ORDER BY count(*) DESC, owner LIMIT 1")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static long query(final HikariDataSource ds, final String sql, final String table) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void deleteAll(final HikariDataSource ds, final String system) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            if (system.equals(Systems.TICKWHEEL)) {
                st.execute("DELETE FROM " + Systems.TW_TABLE);
            } else {
                st.execute("DELETE FROM " + Systems.DBS_TABLE);
            }
        }
    }

    private static void progress(final String message) {
        System.err.println("[cluster] " + message);
    }
}
