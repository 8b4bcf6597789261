package io.tickwheel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Races and faults inside the store, against a real PostgreSQL: a replacement that waited for its
 * row's lock, a row that no notice announced, a sink and a driver that throw an Error, and a done
 * that arrives after close. Each lost a fire, or left a future pending, before 2026-11-29.
 */
class PostgresStoreRacesTest {

    private static final String POOL = "tw-races-test";
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static String schema;
    private static HikariDataSource ds;

    @BeforeAll
    static void setUp() {
        schema = Pg.freshSchema("races");
        ds = Pg.pool(POOL, 10);
    }

    @AfterAll
    static void tearDown() {
        ds.close();
    }

    private static String freshTable() {
        return schema + ".t" + TABLES.incrementAndGet();
    }

    private static PostgresStore store(final DataSource source, final String table, final String node) {
        return PostgresStore.builder(source).table(table).nodeId(node).lease(Duration.ofSeconds(2)).build();
    }

    /** A sink that passes deliveries on and ignores revokes. */
    private static TimerStore.Sink sink(final Consumer<StoredTimeout> deliveries) {
        return new TimerStore.Sink() {
            @Override
            public void deliver(final StoredTimeout timeout) {
                deliveries.accept(timeout);
            }

            @Override
            public void revoke(final String type, final String key, final long version) {
                // not needed here
            }
        };
    }

    @Test
    void aReplacementThatWaitedForTheRowLock_endsWithTheHighestVersion() throws Exception {
        String table = freshTable();
        try (PostgresStore store = store(ds, table, "versions")) {
            Instant due = Instant.now().plus(1, ChronoUnit.HOURS);
            store.schedule("t", "k", new byte[] {1}, due).join();
            try (Connection x = ds.getConnection()) {
                x.setAutoCommit(false);
                try (PreparedStatement lock = x.prepareStatement(
                        "SELECT 1 FROM " + table + " WHERE type = 't' AND key = 'k' FOR UPDATE")) {
                    lock.executeQuery().close();
                }
                // Drawn before X's replacement, but it commits after it: it waits for X's row lock.
                CompletableFuture<StoredTimeout> waiting = store.schedule("t", "k", new byte[] {2}, due);
                await().atMost(Duration.ofSeconds(10)).until(() -> Pg.queryLong("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE application_name = '" + POOL + "' AND wait_event_type = 'Lock'") == 1);
                store.schedule(x, "t", "k", new byte[] {3}, due);
                long xVersion;
                try (PreparedStatement read = x.prepareStatement(
                        "SELECT version FROM " + table + " WHERE type = 't' AND key = 'k'");
                        ResultSet rs = read.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    xVersion = rs.getLong(1);
                }
                x.commit();
                StoredTimeout last = waiting.get(10, TimeUnit.SECONDS);
                assertThat(last.version()).as("the replacement that committed last has the highest version")
                        .isGreaterThan(xVersion);
                assertThat(store.find("t", "k")).hasValueSatisfying(t -> {
                    assertThat(t.version()).isEqualTo(last.version());
                    assertThat(t.payload()).containsExactly(2);
                });
            }
        }
    }

    @Test
    void aRowNoNoticeAnnounced_inASliceAlreadyOwned_stillFires() throws Exception {
        String table = freshTable();
        CountDownLatch anchorRuns = new CountDownLatch(1);
        CountDownLatch anchorMayEnd = new CountDownLatch(1);
        BlockingQueue<String> fired = new LinkedBlockingQueue<>();
        try (TestDriver owner = new TestDriver(store(ds, table, "owner"), t -> {
            if (t.key().equals("anchor")) {
                anchorRuns.countDown();
                try {
                    anchorMayEnd.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            fired.add(t.key());
        }).open();
                PostgresStore behind = store(ds, table, "behind")) {
            // A process whose clock is a minute behind judges every deadline far off and announces none.
            behind.open(sink(t -> { }), Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-1)));
            Instant second = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
            behind.schedule("t", "anchor", new byte[0], second.plusMillis(100)).join();
            assertThat(anchorRuns.await(15, TimeUnit.SECONDS)).as("the owner's poll found the anchor").isTrue();
            assertThat(owner.store().pendingTimeouts()).isEqualTo(1);
            // Into the slice the owner holds (its anchor still running), with no notice.
            behind.schedule("t", "unannounced", new byte[0], second.plusMillis(600)).join();
            anchorMayEnd.countDown();
            assertThat(fired.poll(15, TimeUnit.SECONDS)).isEqualTo("anchor");
            assertThat(fired.poll(15, TimeUnit.SECONDS)).as("the row no notice announced fires")
                    .isEqualTo("unannounced");
        }
    }

    @Test
    void aSinkThatThrowsAnError_stopsNoThread_andItsTimeoutIsDeliveredAgain() throws Exception {
        String table = freshTable();
        AtomicInteger errorsLeft = new AtomicInteger(1);
        BlockingQueue<StoredTimeout> delivered = new LinkedBlockingQueue<>();
        try (PostgresStore store = store(ds, table, "sink")) {
            store.open(sink(t -> {
                if (errorsLeft.getAndDecrement() > 0) {
                    throw new OutOfMemoryError("injected into the sink");
                }
                delivered.add(t);
            }), Clock.systemUTC());
            StoredTimeout first = store.schedule("t", "first", new byte[0], Instant.now().plusMillis(300)).join();
            assertThat(delivered.poll(15, TimeUnit.SECONDS)).as("delivered again after the Error").isEqualTo(first);
            StoredTimeout second = store.schedule("t", "second", new byte[0], Instant.now().plusMillis(300)).join();
            assertThat(delivered.poll(15, TimeUnit.SECONDS)).as("the lease thread lives on").isEqualTo(second);
            assertThat(errorsLeft.get()).isNegative();
        }
    }

    @Test
    void aTimeoutTheSinkAlwaysRefuses_holdsUpNoOther() throws Exception {
        String table = freshTable();
        BlockingQueue<StoredTimeout> delivered = new LinkedBlockingQueue<>();
        AtomicInteger refusals = new AtomicInteger();
        try (PostgresStore store = store(ds, table, "refused")) {
            store.open(sink(t -> {
                if (t.key().equals("refused")) {
                    refusals.incrementAndGet();
                    throw new IllegalStateException("this sink never takes it");
                }
                delivered.add(t);
            }), Clock.systemUTC());
            Instant second = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.SECONDS);
            store.schedule("t", "refused", new byte[0], second.plusMillis(100)).join();
            StoredTimeout later = store.schedule("t", "later", new byte[0], second.plusMillis(500)).join();
            assertThat(delivered.poll(15, TimeUnit.SECONDS)).as("the one after it, in its slice").isEqualTo(later);
            await().atMost(Duration.ofSeconds(10)).until(() -> refusals.get() >= 2); // and it is offered again
        }
    }

    @Test
    void aDriverErrorWhileRecordingDone_failsThatBatchOnly() throws Exception {
        String table = freshTable();
        AtomicInteger errorsLeft = new AtomicInteger(1);
        DataSource faulty = failingDone(ds, errorsLeft);
        BlockingQueue<StoredTimeout> delivered = new LinkedBlockingQueue<>();
        try (PostgresStore store = store(faulty, table, "done")) {
            store.open(sink(delivered::add), Clock.systemUTC());
            StoredTimeout first = store.schedule("t", "first", new byte[0], Instant.now().plusMillis(200)).join();
            assertThat(delivered.poll(15, TimeUnit.SECONDS)).isEqualTo(first);
            await().atMost(Duration.ofSeconds(5)).until(() -> store.claim(first));
            CompletableFuture<Void> failed = store.done(first);
            assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS)).as("the batch the Error struck fails")
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(IllegalStateException.class)
                    .hasRootCauseInstanceOf(OutOfMemoryError.class);

            StoredTimeout second = store.schedule("t", "second", new byte[0], Instant.now().plusMillis(200)).join();
            StoredTimeout got = delivered.poll(15, TimeUnit.SECONDS);
            assertThat(got).isEqualTo(second);
            await().atMost(Duration.ofSeconds(5)).until(() -> store.claim(got));
            store.done(got).get(10, TimeUnit.SECONDS); // the writer lives on
            assertThat(store.find("t", "second")).as("recorded: the row is gone").isEmpty();
            assertThat(store.find("t", "first")).as("not recorded: it fires again").isPresent();
        }
    }

    @Test
    void aDoneAfterClose_completes_andTheTimeoutStaysPending() throws Exception {
        String table = freshTable();
        BlockingQueue<StoredTimeout> delivered = new LinkedBlockingQueue<>();
        PostgresStore store = store(ds, table, "closing");
        StoredTimeout got;
        try {
            store.open(sink(delivered::add), Clock.systemUTC());
            StoredTimeout t = store.schedule("t", "k", new byte[0], Instant.now().plusMillis(200)).join();
            got = delivered.poll(15, TimeUnit.SECONDS);
            assertThat(got).isEqualTo(t);
            await().atMost(Duration.ofSeconds(5)).until(() -> store.claim(got));
        } finally {
            store.close();
        }
        // A handler that returned after its timer closed the store.
        CompletableFuture<Void> late = store.done(got);
        await().atMost(Duration.ofSeconds(5)).until(late::isDone);
        assertThat(Pg.queryLong("SELECT count(*) FROM " + table + " WHERE key = 'k'"))
                .as("a done the store could not record leaves the timeout to fire again").isEqualTo(1);
    }

    /** {@code source}, except that the done statement throws an Error while any are left. */
    private static DataSource failingDone(final DataSource source, final AtomicInteger errorsLeft) {
        return (DataSource) Proxy.newProxyInstance(PostgresStoreRacesTest.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(method, source, args);
                    if (!(result instanceof Connection real)) {
                        return result;
                    }
                    return Proxy.newProxyInstance(PostgresStoreRacesTest.class.getClassLoader(),
                            new Class<?>[] {Connection.class}, (p, m, a) -> {
                                if (m.getName().equals("prepareStatement")
                                        && String.valueOf(a[0]).contains("USING unnest(?::text[]")
                                        && errorsLeft.getAndDecrement() > 0) {
                                    throw new OutOfMemoryError("injected into the done statement");
                                }
                                return invoke(m, real, a);
                            });
                });
    }

    private static Object invoke(final java.lang.reflect.Method method, final Object target, final Object[] args)
            throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
