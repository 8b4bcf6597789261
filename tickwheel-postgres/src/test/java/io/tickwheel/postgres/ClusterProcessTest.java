package io.tickwheel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.tickwheel.postgres.Fleet.Fire;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Several processes (real child JVMs) on one table: every timeout fires, each by one process while
 * all are healthy; SIGKILL, SIGSTOP and terminated connections are survived with nothing lost and
 * no slice fired by two processes after a takeover. Fires are reported by the children on stdout.
 */
class ClusterProcessTest {

    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Map<String, Long> DEADLINES = new ConcurrentHashMap<>();
    private static String schema;
    private static HikariDataSource ds;

    @BeforeAll
    static void setUp() {
        schema = Pg.freshSchema("cluster");
        ds = Pg.pool("tw-cluster-parent", 4);
    }

    @AfterAll
    static void tearDown() {
        ds.close();
    }

    /**
     * Schedules {@code n} timeouts, the i-th due {@code from + span * i / n} after the moment it is
     * scheduled (so a slow, loaded machine still leaves a window of timeouts to come); returns their keys.
     */
    private static Set<String> schedule(final PostgresStore store, final String prefix, final int n,
            final Duration from, final Duration span) {
        Set<String> keys = ConcurrentHashMap.newKeySet();
        IntStream.range(0, 4).parallel().forEach(part -> {
            for (int i = part; i < n; i += 4) {
                String key = prefix + i;
                Instant deadline = Instant.now().plus(from).plus(span.multipliedBy(i).dividedBy(n));
                store.schedule("job", key, new byte[] {1}, deadline).join();
                keys.add("job/" + key);
                DEADLINES.put("job/" + key, deadline.toEpochMilli());
            }
        });
        return keys;
    }

    private static PostgresStore parentStore(final String table) {
        return PostgresStore.builder(ds).table(schema + "." + table).nodeId("parent").lease(LEASE).build();
    }

    private static Map<String, List<Fire>> byKey(final List<Fire> fires) {
        return fires.stream().collect(Collectors.groupingBy(Fire::key));
    }

    private static void awaitAllFired(final Fleet fleet, final Set<String> keys, final Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(200))
                .until(() -> byKey(fleet.fires()).keySet().containsAll(keys));
    }

    @Test
    void healthyCluster_everyTimeoutFiresOnce_eachSliceByOneProcess() throws Exception {
        healthy("healthy", false);
    }

    @Test
    void healthyClusterOfDurableTimers_everyTimeoutFiresOnce_eachSliceByOneProcess() throws Exception {
        healthy("durable", true);
    }

    private static void healthy(final String table, final boolean durable) throws Exception {
        PostgresStore store = parentStore(table);
        try (Fleet fleet = new Fleet(schema + "." + table, LEASE, durable, "a", "b", "c")) {
            fleet.awaitReady();
            Set<String> keys = schedule(store, table + "-", 600, Duration.ofSeconds(1), Duration.ofSeconds(5));
            awaitAllFired(fleet, keys, Duration.ofSeconds(30));
            Thread.sleep(1_000); // a late duplicate would show up here
            List<Fire> fires = fleet.fires();
            assertThat(fires).hasSize(600);
            assertThat(byKey(fires).values()).allSatisfy(f -> assertThat(f).hasSize(1));
            Map<Long, Set<String>> sliceOwners = new HashMap<>();
            fires.forEach(f -> sliceOwners.computeIfAbsent(f.slice(), s -> new HashSet<>()).add(f.node()));
            assertThat(sliceOwners.values()).allSatisfy(owners -> assertThat(owners).hasSize(1));
            await().atMost(Duration.ofSeconds(10)).until(() -> store.pendingTimeouts() == 0);
        } finally {
            store.close();
        }
    }

    @Test
    void killNine_othersFireItsTimeoutsWithinALease_nothingLost() throws Exception {
        PostgresStore store = parentStore("kill");
        try (Fleet fleet = new Fleet(schema + ".kill", LEASE, "a", "b", "c")) {
            fleet.awaitReady();
            Set<String> keys = schedule(store, "kill-", 900, Duration.ofSeconds(4), Duration.ofSeconds(8));
            String victim = midRun(fleet, "kill");
            fleet.process(victim).destroyForcibly().waitFor(); // SIGKILL on Linux
            long killedAt = System.currentTimeMillis();
            awaitAllFired(fleet, keys, Duration.ofSeconds(40));
            Thread.sleep(1_000);
            List<Fire> fires = fleet.fires();
            Map<String, List<Fire>> byKey = byKey(fires);
            assertThat(byKey.keySet()).containsAll(keys);
            // A key fired twice must have been fired first by the victim, before it died (in flight).
            for (List<Fire> twice : byKey.values()) {
                if (twice.size() > 1) {
                    twice.sort(Comparator.comparingLong(Fire::wallMillis));
                    assertThat(twice.get(0).node()).isEqualTo(victim);
                    assertThat(twice.subList(1, twice.size())).noneMatch(f -> f.node().equals(victim));
                }
            }
            assertThat(fires.stream().filter(f -> f.node().equals(victim) && f.wallMillis() > killedAt + 50))
                    .isEmpty();
            // Taken over within one lease (plus a poll and the test's own slack): the worst lateness of any fire
            // after the kill, measured from the deadline or the kill, whichever is later. Healthy fires are a
            // few ms late, so the worst is the victim's orphaned timeouts waiting for its leases to expire.
            long worst = 0;
            for (Fire f : fires) {
                if (f.wallMillis() > killedAt) {
                    worst = Math.max(worst, f.wallMillis() - Math.max(DEADLINES.get(f.key()), killedAt));
                }
            }
            System.out.println("kill -9 takeover: worst lateness after the kill " + worst + " ms (lease "
                    + LEASE.toMillis() + " ms)");
            assertThat(worst).as("some timeouts were the victim's, so they wait for its lease").isGreaterThan(100);
            assertThat(worst).isLessThan(LEASE.toMillis() + 1_500);
        } finally {
            store.close();
        }
    }

    @Test
    void sigstopPastTheLease_pausedProcessNeverFiresWhatAnotherTookOver() throws Exception {
        PostgresStore store = parentStore("pause");
        try (Fleet fleet = new Fleet(schema + ".pause", LEASE, "a", "b", "c")) {
            fleet.awaitReady();
            Set<String> keys = schedule(store, "pause-", 900, Duration.ofSeconds(4), Duration.ofSeconds(10));
            String paused = midRun(fleet, "pause");
            fleet.signal(paused, "STOP");
            long stoppedAt = System.currentTimeMillis();
            Thread.sleep(LEASE.toMillis() * 3);
            fleet.signal(paused, "CONT");
            long continuedAt = System.currentTimeMillis();
            awaitAllFired(fleet, keys, Duration.ofSeconds(40));
            Thread.sleep(2_000);
            List<Fire> fires = fleet.fires();
            for (List<Fire> twice : byKey(fires).values()) {
                if (twice.size() > 1) {
                    // Only a fire in flight when the process froze may be repeated by the new owner.
                    twice.sort(Comparator.comparingLong(Fire::wallMillis));
                    assertThat(twice.get(0).node()).isEqualTo(paused);
                    assertThat(twice.get(0).wallMillis()).isLessThanOrEqualTo(stoppedAt + 50);
                    assertThat(twice).hasSize(2);
                }
            }
            Map<Long, Set<String>> takenOver = new HashMap<>();
            for (Fire f : fires) {
                if (!f.node().equals(paused) && f.wallMillis() > stoppedAt) {
                    takenOver.computeIfAbsent(f.slice(), s -> new HashSet<>()).add(f.node());
                }
            }
            List<Fire> afterResume = new ArrayList<>();
            for (Fire f : fires) {
                if (f.node().equals(paused) && f.wallMillis() >= continuedAt && takenOver.containsKey(f.slice())) {
                    afterResume.add(f);
                }
            }
            assertThat(afterResume).as("fires by the resumed process in slices another process took over").isEmpty();
        } finally {
            store.close();
        }
    }

    @Test
    void terminatedConnections_processRecoversAndFiresEverything() throws Exception {
        PostgresStore store = parentStore("term");
        try (Fleet fleet = new Fleet(schema + ".term", LEASE, "a", "b")) {
            fleet.awaitReady();
            Set<String> keys = schedule(store, "term-", 400, Duration.ofSeconds(1), Duration.ofSeconds(5));
            Thread.sleep(2_000);
            assertThat(Pg.terminate("a")).isGreaterThan(0);
            assertThat(Pg.terminate("b")).isGreaterThan(0);
            keys.addAll(schedule(store, "late", 100, Duration.ofSeconds(1), Duration.ofSeconds(2)));
            awaitAllFired(fleet, keys, Duration.ofSeconds(30));
            Thread.sleep(1_000);
            List<Fire> fires = fleet.fires();
            assertThat(byKey(fires).values()).allSatisfy(f -> assertThat(f).hasSize(1));
            assertThat(fires).hasSize(500);
        } finally {
            store.close();
        }
    }

    /**
     * Waits until firing is under way and returns the process that holds the most slices still to come
     * (their timeouts must wait for a takeover when it is killed or paused).
     */
    private static String midRun(final Fleet fleet, final String table) {
        String[] owner = new String[1];
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
            owner[0] = futureOwner(table);
            return fleet.fires().size() >= 50 && owner[0] != null;
        });
        return owner[0];
    }

    private static String futureOwner(final String table) {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                // Slices due within the next two seconds, under a live lease: their timeouts come due
                // before the victim's lease (4/5 of LEASE) can run out, so they must wait for it. A slice
                // further ahead is taken over before it is due, and its timeouts are not late at all.
                ResultSet rs = s.executeQuery("SELECT owner FROM " + schema + "." + table + "_slices"
                        + " WHERE slice BETWEEN floor(extract(epoch FROM now()))::bigint"
                        + " AND floor(extract(epoch FROM now()))::bigint + 1"
                        + " AND owner IS NOT NULL AND lease_until > now()"
                        + " GROUP BY owner ORDER BY count(*) DESC LIMIT 1")) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw Pg.unreachable(e);
        }
    }

}
