package io.tickwheel.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The LISTEN side of the table's channel: one dedicated connection, borrowed from the data source
 * for as long as the store is open, that waits in {@link PGConnection#getNotifications(int)} and
 * passes every payload to the lease thread. When the connection breaks (server restart,
 * {@code pg_terminate_backend}, network) it reconnects with backoff and reports the gap, because
 * notifications sent while nobody listened are lost: the lease thread then reloads what it holds.
 * A {@code SELECT 1} every few seconds finds a connection that died silently.
 *
 * <p>Threading: one thread ("tickwheel-postgres-listen-…") runs {@link #run()}; {@link #close()}
 * and {@link #awaitListening} may be called from any thread ({@code closed} is volatile, the latch
 * orders the first LISTEN before the wait returns).
 */
final class Listener implements Runnable {

    private static final int WAIT_MILLIS = 250;
    private static final long PING_NANOS = 5_000_000_000L;
    /**
     * The LISTEN connection's network timeout: how long a read may wait. Without one, a ping on a
     * connection whose packets vanish (a dead peer, no reset) waits for TCP to give up, about 15
     * minutes on Linux, and no gap is reported meanwhile; its query timeout cannot help, as the
     * cancel request goes to the same unreachable server.
     */
    private static final int NETWORK_TIMEOUT_MILLIS = 20_000;
    /** PgJDBC applies a network timeout to the socket itself and runs nothing on this executor. */
    private static final Executor DIRECT = Runnable::run;

    private final DataSource dataSource;
    private final String channel;
    private final Consumer<String> onPayload;
    private final Runnable onGap;
    private final Log log;
    private final long pingNanos;
    private final int networkTimeoutMillis;
    private final CountDownLatch listening = new CountDownLatch(1);
    /**
     * Whether a LISTEN has been in place before; listener thread only. Set when a LISTEN succeeds,
     * not when {@link #listen} returns: it returns only on close, so a flag set there stayed false
     * after every failure, and the commits between the failure's resync and the new LISTEN were
     * never reloaded.
     */
    private boolean listenedBefore;
    /** Written by close, read by the listener thread. */
    private volatile boolean closed;

    Listener(final DataSource dataSource, final String channel, final Consumer<String> onPayload,
            final Runnable onGap, final Log log) {
        this(dataSource, channel, onPayload, onGap, log, PING_NANOS, NETWORK_TIMEOUT_MILLIS);
    }

    /** Test seam: pings and the network timeout shorter than a test's patience. */
    Listener(final DataSource dataSource, final String channel, final Consumer<String> onPayload,
            final Runnable onGap, final Log log, final long pingNanos, final int networkTimeoutMillis) {
        this.dataSource = dataSource;
        this.channel = channel;
        this.onPayload = onPayload;
        this.onGap = onGap;
        this.log = log;
        this.pingNanos = pingNanos;
        this.networkTimeoutMillis = networkTimeoutMillis;
    }

    @Override
    public void run() {
        long backoffMillis = 50;
        while (!closed) {
            try (Connection c = dataSource.getConnection()) {
                listen(c);
                backoffMillis = 50;
            } catch (SQLException | RuntimeException | Error e) {
                // An Error too: without this thread no gap is ever reported, and rows scheduled into
                // slices this process owns would wait for the next owner.
                if (closed) {
                    return;
                }
                log.warn("listen", "PostgresStore: the LISTEN connection on channel " + channel
                        + " failed; reconnecting (timeouts stay safe, new ones may wait for the next poll)", e);
                onGap.run();
                sleep(backoffMillis);
                backoffMillis = Math.min(2_000, backoffMillis * 2);
            }
        }
    }

    private void listen(final Connection c) throws SQLException {
        PGConnection pg = c.unwrap(PGConnection.class);
        c.setAutoCommit(true);
        int previousTimeout = c.getNetworkTimeout();
        c.setNetworkTimeout(DIRECT, networkTimeoutMillis);
        try {
            listenOn(c, pg);
        } finally {
            try {
                c.setNetworkTimeout(DIRECT, previousTimeout); // the pool's connection, as it was lent
            } catch (SQLException broken) {
                // the connection died: the pool discards it, and the failure that ended listenOn reaches run()
            }
        }
    }

    private void listenOn(final Connection c, final PGConnection pg) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("LISTEN \"" + channel + "\"");
            // Reconnected: whatever committed after the failure's gap and before this LISTEN was
            // announced to nobody, so the lease thread reloads once more, now that nothing later can be missed.
            if (listenedBefore) {
                onGap.run();
            }
            listenedBefore = true;
            listening.countDown();
            long lastPing = System.nanoTime();
            while (!closed) {
                PGNotification[] notes = pg.getNotifications(WAIT_MILLIS);
                if (notes != null) {
                    for (PGNotification n : notes) {
                        onPayload.accept(n.getParameter());
                    }
                }
                if (System.nanoTime() - lastPing > pingNanos) {
                    s.setQueryTimeout(5);
                    s.execute("SELECT 1");
                    lastPing = System.nanoTime();
                }
            }
            // The connection goes back to the pool: it must not keep receiving notifications there.
            s.execute("UNLISTEN *");
        }
    }

    /** Waits until the first LISTEN is in place (so nothing committed after it can be missed). */
    boolean awaitListening(final long millis) throws InterruptedException {
        return listening.await(millis, TimeUnit.MILLISECONDS);
    }

    void close() {
        closed = true;
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
