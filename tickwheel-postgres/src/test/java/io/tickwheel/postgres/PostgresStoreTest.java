package io.tickwheel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One process against a real PostgreSQL: firing, transactions, cancel/replace from another store, outcomes. */
class PostgresStoreTest {

    private static final AtomicInteger TABLES = new AtomicInteger();
    private static String schema;
    private static HikariDataSource ds;

    @BeforeAll
    static void setUp() {
        schema = Pg.freshSchema("store");
        ds = Pg.pool("tw-store-test", 10);
    }

    @AfterAll
    static void tearDown() {
        ds.close();
    }

    static String freshTable() {
        return schema + ".t" + TABLES.incrementAndGet();
    }

    private static PostgresStore store(final String table, final String node) {
        return PostgresStore.builder(ds).table(table).nodeId(node).lease(Duration.ofSeconds(2)).build();
    }

    @Test
    void schedule_firesEachTimeoutOnceAtOrAfterItsDeadline_andDeletesTheRow() {
        String table = freshTable();
        Set<String> fired = ConcurrentHashMap.newKeySet();
        AtomicInteger fires = new AtomicInteger();
        try (TestDriver driver = new TestDriver(store(table, "one"), t -> {
            fires.incrementAndGet();
            fired.add(t.key());
        })) {
            PostgresStore store = (PostgresStore) driver.store();
            driver.open();
            Instant base = Instant.now();
            for (int i = 0; i < 100; i++) {
                store.schedule("t", "k" + i, new byte[] {(byte) i}, base.plusMillis(200 + 20 * i)).join();
            }
            // one far away: leased later, never fired in this test
            store.schedule("t", "far", new byte[0], base.plus(Duration.ofHours(1))).join();
            await().atMost(Duration.ofSeconds(15)).until(() -> fired.size() == 100);
            await().atMost(Duration.ofSeconds(10)).until(() -> store.pendingTimeouts() == 1);
            assertThat(fires.get()).isEqualTo(100);
            assertThat(store.find("t", "far")).isPresent();
            assertThat(store.find("t", "k1")).isEmpty();
        }
    }

    @Test
    void transactionalSchedule_commitFires_rollbackNever() throws Exception {
        String table = freshTable();
        Set<String> fired = ConcurrentHashMap.newKeySet();
        try (TestDriver driver = new TestDriver(store(table, "tx"), t -> fired.add(t.key())).open()) {
            PostgresStore store = (PostgresStore) driver.store();
            Instant due = Instant.now().plusMillis(500);
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                store.schedule(c, "order", "committed", new byte[] {1}, due);
                c.commit();
                store.schedule(c, "order", "rolled-back", new byte[] {2}, due);
                c.rollback();
                c.setAutoCommit(true);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> fired.contains("committed"));
            Thread.sleep(1_500);
            assertThat(fired).containsExactly("committed");
            assertThat(store.find("order", "rolled-back")).isEmpty();
        }
    }

    @Test
    void cancelAndReplaceFromAnotherProcess_reachTheOwnerBeforeTheDeadline() throws Exception {
        String table = freshTable();
        BlockingQueue<StoredTimeout> fired = new LinkedBlockingQueue<>();
        try (TestDriver owner = new TestDriver(store(table, "owner"), fired::add).open();
                PostgresStore other = store(table, "other")) {
            PostgresStore store = (PostgresStore) owner.store();
            Instant due = Instant.now().plusMillis(2_500);
            store.schedule("t", "cancel-me", new byte[] {1}, due).join();
            StoredTimeout first = store.schedule("t", "replace-me", new byte[] {1}, due).join();
            // wait until the owner holds both, then change them from the other store
            await().atMost(Duration.ofSeconds(5)).until(() -> owner.heldCount() == 2);
            assertThat(other.cancel("t", "cancel-me").join()).isTrue();
            assertThat(other.cancel("t", "cancel-me").join()).isFalse();
            StoredTimeout second = other.schedule("t", "replace-me", new byte[] {2}, due.plusMillis(300)).join();
            assertThat(second.version()).isGreaterThan(first.version());
            StoredTimeout ran = fired.poll(10, TimeUnit.SECONDS);
            assertThat(ran).isNotNull();
            assertThat(ran.key()).isEqualTo("replace-me");
            assertThat(ran.payload()).containsExactly(2);
            assertThat(fired.poll(1_500, TimeUnit.MILLISECONDS)).isNull();
        }
    }

    @Test
    void retryFailAndRetryFailed_areFencedAndRedelivered() throws Exception {
        String table = freshTable();
        BlockingQueue<StoredTimeout> delivered = new LinkedBlockingQueue<>();
        try (PostgresStore store = store(table, "outcomes")) {
            store.open(new TimerStore.Sink() {
                @Override
                public void deliver(final StoredTimeout timeout) {
                    delivered.add(timeout);
                }

                @Override
                public void revoke(final String type, final String key, final long version) {
                    // not needed here
                }
            }, Clock.systemUTC());
            StoredTimeout t = store.schedule("t", "k", new byte[] {7}, Instant.now().plusMillis(100)).join();
            StoredTimeout got = delivered.poll(10, TimeUnit.SECONDS);
            assertThat(got).isEqualTo(t);
            await().atMost(Duration.ofSeconds(5)).until(() -> store.claim(got));
            StoredTimeout next = store.retry(got, Instant.now().plusMillis(300)).join();
            assertThat(next.attempt()).isEqualTo(2);
            assertThat(next.version()).isGreaterThan(t.version());
            assertThat(store.claim(got)).as("the old incarnation is finished").isFalse();
            assertThat(store.retry(got, Instant.now()).join()).as("a second retry of it is fenced").isNull();
            StoredTimeout again = delivered.poll(10, TimeUnit.SECONDS);
            assertThat(again).isEqualTo(next);
            await().atMost(Duration.ofSeconds(5)).until(() -> store.claim(again));
            store.fail(again, "boom").join();
            assertThat(store.failed()).extracting(StoredTimeout::key).containsExactly("k");
            assertThat(store.pendingTimeouts()).isZero();
            assertThat(store.retryFailed("t", "k", Instant.now())).isTrue();
            assertThat(store.retryFailed("t", "k", Instant.now())).isFalse();
            StoredTimeout third = delivered.poll(10, TimeUnit.SECONDS);
            assertThat(third.attempt()).isEqualTo(1);
            await().atMost(Duration.ofSeconds(5)).until(() -> store.claim(third));
            store.done(third).join();
            assertThat(store.pendingTimeouts()).isZero();
            assertThat(store.failed()).isEmpty();
        }
    }

    @Test
    void badInput_isRefusedWithTheArgumentNamed() {
        try (PostgresStore store = store(freshTable(), "bad")) {
            Instant now = Instant.now();
            assertThatThrownBy(() -> store.schedule(null, "k", new byte[0], now))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("type");
            assertThatThrownBy(() -> store.schedule("", "k", new byte[0], now)).hasMessageContaining("type");
            assertThatThrownBy(() -> store.schedule("t".repeat(129), "k", new byte[0], now))
                    .hasMessageContaining("type must be at most 128");
            assertThatThrownBy(() -> store.schedule("t", "é".repeat(257), new byte[0], now))
                    .hasMessageContaining("key must be at most 512 bytes");
            assertThatThrownBy(() -> store.schedule("t", "a\u0000b", new byte[0], now)).hasMessageContaining("NUL");
            assertThatThrownBy(() -> store.schedule("t", "k", null, now)).hasMessage("payload");
            assertThatThrownBy(() -> store.schedule("t", "k", new byte[(1 << 20) + 1], now))
                    .hasMessageContaining("payload must be at most");
            assertThatThrownBy(() -> store.schedule("t", "k", new byte[0], null)).hasMessage("deadline");
            assertThatThrownBy(() -> store.schedule("t", "k", new byte[0], Instant.MAX))
                    .hasMessageContaining("deadline is out of range");
            assertThatThrownBy(() -> store.schedule((Connection) null, "t", "k", new byte[0], now))
                    .hasMessage("transaction");
            assertThatThrownBy(() -> store.cancel("t", null)).hasMessage("key");
            assertThatThrownBy(() -> store.open(null, Clock.systemUTC())).hasMessage("sink");
        }
        assertThatThrownBy(() -> PostgresStore.builder(null)).hasMessage("dataSource");
        assertThatThrownBy(() -> PostgresStore.builder(ds).table("Bad-Name")).hasMessageContaining("table must be");
        assertThatThrownBy(() -> PostgresStore.builder(ds).table("x; drop table y")).hasMessageContaining("table");
        assertThatThrownBy(() -> PostgresStore.builder(ds).lease(Duration.ofMillis(10))).hasMessageContaining("lease");
        assertThatThrownBy(() -> PostgresStore.builder(ds).nodeId("")).hasMessageContaining("nodeId");
    }

    @Test
    void openTwice_isRefused() {
        try (TestDriver driver = new TestDriver(store(freshTable(), "twice"), t -> { })) {
            driver.open();
            assertThatThrownBy(() -> driver.store().open(driver, Clock.systemUTC()))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void wrongShapeTable_isRefusedNamingTheTableAndTheColumn() {
        String table = freshTable();
        Pg.exec("CREATE TABLE " + table + " (type text, key text, payload text, deadline_us bigint)");
        assertThatThrownBy(() -> store(table, "shape"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(table)
                .hasMessageContaining(table + ".payload is text, expected bytea")
                .hasMessageContaining(table + ".slice is missing")
                .hasMessageContaining("no primary key");
    }

    @Test
    void missingTable_withoutCreateSchema_isRefusedWithTheFix() {
        String table = freshTable();
        assertThatThrownBy(() -> PostgresStore.builder(ds).table(table).createSchema(false).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("table " + table + " does not exist")
                .hasMessageContaining("schema.sql");
    }

    @Test
    void statementTimeout_failsTheScheduleClearly_andNothingIsStored() throws Exception {
        String table = freshTable();
        store(table, "create").close();
        try (HikariDataSource slow = Pg.pool("tw-store-timeout", 3, "SET statement_timeout = '300ms'")) {
            try (PostgresStore store = PostgresStore.builder(slow).table(table).build();
                    Connection locker = ds.getConnection()) {
                locker.setAutoCommit(false);
                locker.createStatement().execute("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
                assertThatThrownBy(() -> store.schedule("t", "k", new byte[0], Instant.now()).join())
                        .hasCauseInstanceOf(UncheckedIOException.class)
                        .hasMessageContaining(table)
                        .hasMessageContaining("statement timeout");
                locker.rollback();
                assertThat(store.find("t", "k")).isEmpty();
                assertThat(store.schedule("t", "k", new byte[0], Instant.now()).join().key()).isEqualTo("k");
                assertThat(store.pendingTimeouts()).isEqualTo(1);
            }
        }
    }

    @Test
    void shippedSchema_isWhatTheStoreCreates() {
        String ddl = Statements.schema(TableNames.of("tickwheel_timeouts"));
        assertThat(ddl).contains("CREATE TABLE IF NOT EXISTS tickwheel_timeouts (")
                .contains("CREATE TABLE IF NOT EXISTS tickwheel_timeouts_slices")
                .contains("INDEX IF NOT EXISTS tickwheel_timeouts_due ON tickwheel_timeouts")
                .doesNotContain("--");
        assertThat(List.of(Statements.schema(TableNames.of("s.x")).split(";", -1)))
                .anyMatch(s -> s.contains("INDEX IF NOT EXISTS x_due ON s.x "));
        assertThat(Statements.schema(TableNames.of("s.tickwheel_timeouts")))
                .contains("INDEX IF NOT EXISTS tickwheel_timeouts_due ON s.tickwheel_timeouts ")
                .contains("CREATE SEQUENCE IF NOT EXISTS s.tickwheel_timeouts_version");
    }
}
