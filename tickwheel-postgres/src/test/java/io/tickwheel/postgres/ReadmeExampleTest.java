package io.tickwheel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.tickwheel.durable.DurableTimer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The README's "Many processes, one database" lines, run end to end with the real
 * {@link DurableTimer}: build the store and the timer, schedule in the business transaction, cancel.
 */
class ReadmeExampleTest {

    @Test
    void readme_transactionalScheduleFires_cancelStopsIt() throws Exception {
        String schema = Pg.freshSchema("readme");
        Pg.exec("CREATE TABLE " + schema + ".orders (id text PRIMARY KEY)");
        Set<String> expired = ConcurrentHashMap.newKeySet();
        try (HikariDataSource dataSource = Pg.pool("tw-readme", 6)) {
            PostgresStore store = PostgresStore.builder(dataSource)
                    .table(schema + ".tickwheel_timeouts")
                    .lease(Duration.ofSeconds(10))
                    .build();
            try (DurableTimer timer = DurableTimer.builder(store)
                    .handler("order-expiry", t -> expired.add(t.key()))
                    .build()) {
                byte[] payload = {42};
                for (String orderId : new String[] {"order-1", "order-2"}) {
                    try (Connection c = dataSource.getConnection()) {
                        c.setAutoCommit(false);
                        String sql = "INSERT INTO " + schema + ".orders VALUES (?)";
                        try (PreparedStatement insert = c.prepareStatement(sql)) {
                            insert.setString(1, orderId);
                            insert.executeUpdate();
                        }
                        store.schedule(c, "order-expiry", orderId, payload,
                                Instant.now().plus(Duration.ofSeconds(1)));
                        c.commit();
                    }
                }
                assertThat(timer.cancel("order-expiry", "order-2")).isTrue();
                await().atMost(Duration.ofSeconds(10)).until(() -> expired.contains("order-1"));
                Thread.sleep(1_000);
                assertThat(expired).containsExactly("order-1");
                await().atMost(Duration.ofSeconds(5)).until(() -> timer.pendingTimeouts() == 0);
            }
        }
    }
}
