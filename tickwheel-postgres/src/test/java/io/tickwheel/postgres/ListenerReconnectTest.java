package io.tickwheel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * The listener's reconnect protocol, without a server: the data source hands out connections
 * that record what the listener does with them, and the first one breaks in its first wait for
 * notifications. A commit made between the break and the new LISTEN is announced to nobody, so
 * the lease thread must be told to reload after the new LISTEN is in place, not only right after
 * the break (when the resync may run before that commit). A server restart lost an acknowledged
 * timeout this way in CI.
 */
class ListenerReconnectTest {

    @Test
    void aBrokenListenConnection_isFollowedByAGap_afterTheNewListenIsInPlace() {
        List<String> events = new CopyOnWriteArrayList<>();
        AtomicInteger connections = new AtomicInteger();
        DataSource dataSource = fakeDataSource(() -> fakeConnection(connections.incrementAndGet(), events));
        Listener listener = new Listener(dataSource, "tickwheel_test", payload -> events.add("payload"),
                () -> events.add("gap"), new Log());
        Thread thread = new Thread(listener, "listener-under-test");
        thread.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> events.contains("LISTEN on 2"));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> events.lastIndexOf("gap") > events.indexOf("LISTEN on 2"));
        } finally {
            listener.close();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> !thread.isAlive());
        int broke = events.indexOf("broke on 1");
        int relisten = events.indexOf("LISTEN on 2");
        assertThat(broke).as("the first connection broke: %s", events).isGreaterThan(events.indexOf("LISTEN on 1"));
        assertThat(events.subList(broke, relisten)).as("a gap right after the break: %s", events).contains("gap");
        assertThat(events.subList(relisten, events.size())).as("a gap after the new LISTEN: %s", events)
                .contains("gap");
        assertThat(events.subList(0, broke)).as("no gap before anything was missed: %s", events)
                .doesNotContain("gap");
        assertThat(connections.get()).isEqualTo(2);
    }

    @Test
    void aPingThatNeverHearsBack_endsAtTheNetworkTimeout_withAGap() {
        List<String> events = new CopyOnWriteArrayList<>();
        AtomicInteger connections = new AtomicInteger();
        DataSource dataSource = fakeDataSource(() -> fakeConnection(connections.incrementAndGet(), events, true));
        Listener listener = new Listener(dataSource, "tickwheel_test", payload -> events.add("payload"),
                () -> events.add("gap"), new Log(), 100_000_000L, 300);
        Thread thread = new Thread(listener, "listener-under-test");
        thread.start();
        try {
            // Without a network timeout the ping on connection 1 waits a minute, as a read on a
            // connection whose packets vanish waits for TCP to give up.
            await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("LISTEN on 2"));
            await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("gap"));
        } finally {
            listener.close();
        }
        await().atMost(Duration.ofSeconds(70)).until(() -> !thread.isAlive());
        assertThat(events).as("%s", events).contains("ping timed out on 1", "network timeout 300 on 1");
        assertThat(events.indexOf("gap")).as("%s", events).isGreaterThan(events.indexOf("ping timed out on 1"));
        assertThat(events).as("the pool's connection gets its own timeout back: %s", events)
                .contains("network timeout 0 on 1");
    }

    private static Connection fakeConnection(final int number, final List<String> events) {
        return fakeConnection(number, events, false);
    }

    /**
     * A connection whose statements record LISTEN. Connection 1 fails in its first wait for
     * notifications or, with {@code silentPeer}, its ping hears nothing back: it waits for the
     * network timeout (a minute without one), then fails as a socket read that timed out does.
     */
    private static Connection fakeConnection(final int number, final List<String> events, final boolean silentPeer) {
        int[] networkTimeout = new int[1];
        InvocationHandler statement = (proxy, method, args) -> switch (method.getName()) {
            case "execute" -> {
                String sql = (String) args[0];
                if (sql.startsWith("LISTEN")) {
                    events.add("LISTEN on " + number);
                }
                if (sql.equals("SELECT 1") && silentPeer && number == 1) {
                    Thread.sleep(networkTimeout[0] > 0 ? networkTimeout[0] : 60_000);
                    events.add("ping timed out on 1");
                    throw new SQLException("An I/O error occurred while sending to the backend: Read timed out");
                }
                yield false;
            }
            case "close", "setQueryTimeout" -> null;
            default -> throw new UnsupportedOperationException(method.getName());
        };
        Object[] self = new Object[1];
        InvocationHandler connection = (proxy, method, args) -> switch (method.getName()) {
            case "unwrap" -> self[0];
            case "setAutoCommit", "close" -> null;
            case "createStatement" -> Proxy.newProxyInstance(ListenerReconnectTest.class.getClassLoader(),
                    new Class<?>[] {Statement.class}, statement);
            case "getNetworkTimeout" -> networkTimeout[0];
            case "setNetworkTimeout" -> {
                networkTimeout[0] = (Integer) args[1];
                events.add("network timeout " + args[1] + " on " + number);
                yield null;
            }
            case "getNotifications" -> {
                if (number == 1 && !silentPeer) {
                    events.add("broke on 1");
                    throw new SQLException("FATAL: terminating connection due to administrator command");
                }
                Thread.sleep((Integer) args[0] / 10);
                yield null;
            }
            default -> throw new UnsupportedOperationException(method.getName());
        };
        self[0] = Proxy.newProxyInstance(ListenerReconnectTest.class.getClassLoader(),
                new Class<?>[] {Connection.class, PGConnection.class}, connection);
        return (Connection) self[0];
    }

    private interface ConnectionSource {
        Connection next() throws SQLException;
    }

    private static DataSource fakeDataSource(final ConnectionSource source) {
        return new DataSource() {
            @Override
            public Connection getConnection() throws SQLException {
                return source.next();
            }

            @Override
            public Connection getConnection(final String user, final String password) throws SQLException {
                return source.next();
            }

            @Override
            public PrintWriter getLogWriter() {
                return null;
            }

            @Override
            public void setLogWriter(final PrintWriter out) {
                // not used
            }

            @Override
            public void setLoginTimeout(final int seconds) {
                // not used
            }

            @Override
            public int getLoginTimeout() {
                return 0;
            }

            @Override
            public Logger getParentLogger() {
                return Logger.getGlobal();
            }

            @Override
            public <T> T unwrap(final Class<T> type) throws SQLException {
                throw new SQLException("not a wrapper");
            }

            @Override
            public boolean isWrapperFor(final Class<?> type) {
                return false;
            }
        };
    }
}
