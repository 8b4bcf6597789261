package io.tickwheel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Database faults under one process: its connections terminated by {@code pg_terminate_backend},
 * and the server restarted mid-run ({@code pg_ctlcluster 15 main restart -m fast}) or kept down
 * longer than a lease (the server is running again when each test ends). Nothing acknowledged may be lost.
 */
class PostgresStoreFaultTest {

    private static String schema;

    @BeforeAll
    static void setUp() {
        schema = Pg.freshSchema("fault");
    }

    @AfterAll
    static void serverIsUp() {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> {
                    try (Connection c = DriverManager.getConnection(Pg.URL)) {
                        return c.isValid(2);
                    }
                });
    }

    @Test
    void terminatedBackends_listenerAndPoolRecover_newTimeoutsStillFireOnTime() throws Exception {
        Set<String> fired = ConcurrentHashMap.newKeySet();
        try (HikariDataSource ds = Pg.pool("tw-fault-term", 6);
                TestDriver driver = new TestDriver(PostgresStore.builder(ds).table(schema + ".term")
                        .lease(Duration.ofSeconds(2)).build(), t -> fired.add(t.key())).open()) {
            PostgresStore store = (PostgresStore) driver.store();
            Instant base = Instant.now();
            for (int i = 0; i < 50; i++) {
                store.schedule("t", "before" + i, new byte[0], base.plusMillis(1_500 + 40L * i)).join();
            }
            Thread.sleep(500);
            assertThat(Pg.terminate("tw-fault-term")).isGreaterThan(0);
            Thread.sleep(300);
            Instant after = Instant.now();
            int acked = 0;
            for (int i = 0; i < 50; i++) {
                try {
                    store.schedule("t", "after" + i, new byte[0], after.plusMillis(1_000 + 20L * i)).join();
                    acked++;
                } catch (CompletionException e) {
                    // a statement on a connection that died with the backend: not acknowledged, retried once
                    store.schedule("t", "after" + i, new byte[0], after.plusMillis(1_000 + 20L * i)).join();
                    acked++;
                }
            }
            assertThat(acked).isEqualTo(50);
            await().atMost(Duration.ofSeconds(15)).until(() -> fired.size() == 100);
            assertThat(driver.doneErrors.get()).isZero();
            await().atMost(Duration.ofSeconds(10)).until(() -> store.pendingTimeouts() == 0);
        }
    }

    @Test
    void serverRestartMidRun_reconnects_andLosesNothingAcknowledged() throws Exception {
        outage("restart", 0);
    }

    /**
     * The server stays down longer than a lease: claims are refused while the lease cannot be
     * renewed, and the timeouts due meanwhile must be delivered again once it is.
     */
    @Test
    void serverDownLongerThanALease_timeoutsDueMeanwhileFireAfterwards() throws Exception {
        outage("down", 3_000);
    }

    private static void outage(final String table, final long downMillis) throws Exception {
        Set<String> fired = ConcurrentHashMap.newKeySet();
        Set<String> acked = ConcurrentHashMap.newKeySet();
        AtomicInteger refused = new AtomicInteger();
        try (HikariDataSource ds = Pg.pool("tw-fault-" + table, 6);
                TestDriver driver = new TestDriver(PostgresStore.builder(ds).table(schema + "." + table)
                        .lease(Duration.ofSeconds(2)).build(), t -> fired.add(t.key())).open()) {
            PostgresStore store = (PostgresStore) driver.store();
            Thread producer = new Thread(() -> {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
                for (int i = 0; System.nanoTime() < end; i++) {
                    try {
                        store.schedule("t", "k" + i, new byte[0], Instant.now().plusMillis(1_500)).join();
                        acked.add("k" + i);
                    } catch (CompletionException e) {
                        refused.incrementAndGet(); // not acknowledged: the caller knows it must retry
                    }
                    sleepMillis(20);
                }
            });
            producer.start();
            Thread.sleep(2_000);
            if (downMillis == 0) {
                pgCtl("restart");
            } else {
                // Due while the server is down and the lease (2 s, claims stop 1.6 s after the last
                // renewal) has lapsed: every one of these claims is refused when it comes due.
                Instant stop = Instant.now();
                for (int i = 0; i < 20; i++) {
                    store.schedule("t", "during" + i, new byte[0], stop.plusMillis(2_000 + 40L * i)).join();
                    acked.add("during" + i);
                }
                pgCtl("stop");
                Thread.sleep(downMillis);
                pgCtl("start");
            }
            serverIsUp();
            producer.join();
            assertThat(acked).hasSizeGreaterThan(50);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> fired.containsAll(acked));
            } catch (ConditionTimeoutException e) {
                Set<String> missing = new TreeSet<>(acked);
                missing.removeAll(fired);
                throw new AssertionError("acknowledged timeouts not fired 30 s after the " + table + ": " + missing
                        + "; their rows now: " + rowsOf(ds, schema + "." + table, missing), e);
            }
            System.out.println(table + ": " + acked.size() + " acknowledged, " + refused.get() + " refused, "
                    + fired.size() + " fired");
        }
    }

    /** What the table says of {@code keys}: the diagnosis a failed restart test needs. */
    private static List<String> rowsOf(final HikariDataSource ds, final String table, final Set<String> keys) {
        List<String> rows = new ArrayList<>();
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT key, slice, deadline_us, version, state FROM "
                        + table + " WHERE type = 't' AND key = ANY(?)")) {
            ps.setArray(1, c.createArrayOf("text", keys.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getString(1) + " slice " + rs.getLong(2) + " deadline_us " + rs.getLong(3)
                            + " v" + rs.getLong(4) + " state " + rs.getInt(5));
                }
            }
        } catch (SQLException e) {
            rows.add("cannot read the table: " + e);
        }
        return rows;
    }

    private static void pgCtl(final String action) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("pg_ctlcluster", "15", "main", action));
        if (!action.equals("start")) {
            command.addAll(List.of("-m", "fast"));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(done).as("pg_ctlcluster " + action + " finished: " + out).isTrue();
        assertThat(p.exitValue()).as("pg_ctlcluster " + action + ": " + out).isZero();
    }

    private static void sleepMillis(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
