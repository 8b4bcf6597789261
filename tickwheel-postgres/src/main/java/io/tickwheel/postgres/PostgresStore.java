package io.tickwheel.postgres;

import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A {@link TimerStore} on PostgreSQL that any number of processes share: one table, each pending
 * timeout fired by one of them at its deadline, a crashed process's timeouts taken over within one
 * lease.
 *
 * <p>Time is cut into one-second slices. Each process leases the slices that come due within the
 * next few seconds ({@code FOR UPDATE SKIP LOCKED}, an epoch bumped on every acquisition), loads
 * their timeouts into its timer's wheel, renews its leases every fifth of a lease, and stops firing
 * a slice on its own before its lease can expire (see {@link SliceLeases} for the protocol). New,
 * replaced and cancelled timeouts reach the process that holds them through {@code LISTEN/NOTIFY},
 * sent in the writing transaction. Fired rows are deleted in bulk, fenced by the slice's epoch.
 *
 * <pre>{@code
 * PostgresStore store = PostgresStore.builder(dataSource).lease(Duration.ofSeconds(10)).build();
 * DurableTimer timer = DurableTimer.builder(store).handler("order-expiry", expireOrder).build();
 * // in the business transaction: the timeout exists if and only if the order row commits
 * store.schedule(connection, "order-expiry", orderId, payload, Instant.now().plus(Duration.ofMinutes(30)));
 * }</pre>
 *
 * <p>The data source must allow two connections beyond the caller's own (the LISTEN connection is
 * held while the store is open). Errors name the table and the cause ({@link Failures}).
 *
 * <p>Threading: thread-safe. Owned threads: the lease thread ({@link LeaseLoop}: every sink call),
 * the listener ({@link Listener}), the done writer ({@link DoneWriter}) and a pool of four I/O
 * threads for {@code schedule}, {@code cancel}, {@code retry} and {@code fail}. {@code state}
 * is an {@link AtomicInteger} (new, open, closed).
 */
public final class PostgresStore implements TimerStore {

    /** A schedule due sooner than this is announced, so an owner holding its slice loads it at once. */
    private static final Duration NOTIFY_WINDOW = Duration.ofSeconds(30);
    private static final int NEW = 0;
    private static final int OPEN = 1;
    private static final int CLOSED = 2;

    private final TableNames names;
    private final DataSource dataSource;
    private final String nodeId;
    private final Duration lease;
    private final Statements sql;
    private final String channel;
    private final TimeoutTable timeouts;
    private final SliceLeases leases;
    private final Log log = new Log();
    private final IoPool io;
    private final AtomicInteger state = new AtomicInteger(NEW);
    /** Set by open before the threads start (their start is the happens-before edge); read by any thread. */
    private volatile Clock clock = Clock.systemUTC();
    private volatile LeaseLoop leaseLoop;
    private volatile Listener listener;
    private volatile DoneWriter doneWriter;
    private volatile Thread[] threads = new Thread[0];

    private PostgresStore(final Builder b, final String channel) {
        this.names = b.names;
        this.dataSource = b.dataSource;
        this.nodeId = b.nodeId;
        this.lease = b.lease;
        this.sql = b.sql;
        this.channel = channel;
        this.timeouts = new TimeoutTable(dataSource, sql, channel);
        this.leases = new SliceLeases(granted(lease).toNanos(), System::nanoTime);
        this.io = new IoPool(names, nodeId);
    }

    /**
     * Starts building a store on a data source (HikariCP or any pool).
     *
     * @param dataSource where the table lives; the store borrows connections and returns them
     * @return the builder
     */
    public static Builder builder(final DataSource dataSource) {
        return new Builder(Objects.requireNonNull(dataSource, "dataSource"));
    }

    /**
     * Schedules a timeout in the caller's transaction: it exists if and only if that transaction
     * commits, and a process holding its slice hears of it at commit. Replaces a pending or failed
     * timeout of the same type and key. Does not commit.
     *
     * @param transaction the caller's connection (autocommit off, typically)
     * @param type        the handler's name (1–128 characters)
     * @param key         the key, unique within the type (1–512 bytes of UTF-8)
     * @param payload     at most 1 MiB
     * @param deadline    when it is due
     * @throws UncheckedIOException if the statement fails (the message names the table and cause)
     */
    public void schedule(final Connection transaction, final String type, final String key, final byte[] payload,
            final Instant deadline) {
        Objects.requireNonNull(transaction, "transaction");
        Args.timeout(type, key, payload, deadline);
        try {
            timeouts.schedule(transaction, type, key, payload.clone(), Notice.micros(deadline), near(deadline));
        } catch (SQLException e) {
            throw Failures.wrap(names, "schedule in the caller's transaction", e);
        }
    }

    @Override
    public int maxPayloadBytes() {
        return Args.MAX_PAYLOAD_BYTES;
    }

    @Override
    public void open(final Sink sink, final Clock timerClock) {
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(timerClock, "clock");
        if (!state.compareAndSet(NEW, OPEN)) {
            throw new IllegalStateException("PostgresStore(" + names + ") was already opened or is closed");
        }
        clock = timerClock;
        int statementSeconds = (int) Math.max(1, lease.toSeconds() / 2);
        LeaseLoop loop = new LeaseLoop(dataSource, timeouts, new SliceTable(sql, channel, statementSeconds), leases,
                sink, timerClock, nodeId, granted(lease), statementSeconds, log);
        Listener listen = new Listener(dataSource, channel, loop::offer, loop::gap, log);
        DoneWriter done = new DoneWriter(timeouts, leases, names, log);
        leaseLoop = loop;
        listener = listen;
        doneWriter = done;
        Thread[] started = {
            IoPool.daemon("tickwheel-postgres-listen-" + nodeId).newThread(listen),
            IoPool.daemon("tickwheel-postgres-lease-" + nodeId).newThread(loop),
            IoPool.daemon("tickwheel-postgres-done-" + nodeId).newThread(done),
        };
        threads = started;
        started[0].start();
        try {
            if (!listen.awaitListening(lease.toMillis())) {
                log.warn("open", "PostgresStore(" + names + "): LISTEN not in place after one lease; firing"
                        + " starts anyway and catches up when it is", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        started[1].start();
        started[2].start();
    }

    @Override
    public CompletableFuture<StoredTimeout> schedule(final String type, final String key, final byte[] payload,
            final Instant deadline) {
        Args.timeout(type, key, payload, deadline);
        long micros = Notice.micros(deadline);
        boolean near = near(deadline);
        return io.run("schedule", () -> timeouts.schedule(type, key, payload, micros, near));
    }

    @Override
    public CompletableFuture<Boolean> cancel(final String type, final String key) {
        Args.text("type", type);
        Args.text("key", key);
        return io.run("cancel", () -> timeouts.cancel(type, key));
    }

    @Override
    public Optional<StoredTimeout> find(final String type, final String key) {
        Args.text("type", type);
        Args.text("key", key);
        return io.call("find", () -> timeouts.find(type, key));
    }

    @Override
    public long pendingTimeouts() {
        return io.call("pendingTimeouts", timeouts::countPending);
    }

    @Override
    public List<StoredTimeout> failed() {
        return io.call("failed", timeouts::failed);
    }

    @Override
    public boolean retryFailed(final String type, final String key, final Instant deadline) {
        Args.text("type", type);
        Args.text("key", key);
        long micros = Args.micros("deadline", deadline);
        return io.call("retryFailed", () -> timeouts.retryFailed(type, key, micros));
    }

    @Override
    public boolean claim(final StoredTimeout timeout) {
        return leases.claim(timeout);
    }

    @Override
    public CompletableFuture<Void> done(final StoredTimeout timeout) {
        long epoch = leases.epochFor(timeout);
        DoneWriter writer = doneWriter;
        if (epoch < 0 || writer == null) {
            // Fenced: the slice is no longer ours, its new owner fires the timeout again.
            leases.finished(timeout);
            return CompletableFuture.completedFuture(null);
        }
        return writer.submit(timeout, epoch);
    }

    @Override
    public CompletableFuture<StoredTimeout> retry(final StoredTimeout timeout, final Instant nextDeadline) {
        long micros = Args.micros("nextDeadline", nextDeadline);
        long epoch = leases.epochFor(timeout);
        boolean near = near(nextDeadline);
        return io.run("retry", () -> {
            StoredTimeout next = epoch < 0 ? null : timeouts.retry(timeout, epoch, micros, near);
            leases.finished(timeout);
            return next;
        });
    }

    @Override
    public CompletableFuture<Void> fail(final StoredTimeout timeout, final String reason) {
        long epoch = leases.epochFor(timeout);
        String why = reason == null ? "" : reason;
        return io.run("fail", () -> {
            if (epoch >= 0) {
                timeouts.fail(timeout, epoch, why);
            }
            leases.finished(timeout);
            return null;
        });
    }

    @Override
    public void close() {
        if (state.getAndSet(CLOSED) == CLOSED) {
            return;
        }
        leases.close();
        LeaseLoop loop = leaseLoop;
        if (loop != null) {
            loop.close();
            listener.close();
            doneWriter.close();
            for (Thread t : threads) {
                join(t);
            }
            loop.release();
        }
        io.close(lease.toMillis());
    }

    /** The fencing epoch this process holds for {@code timeout}'s slice, or -1 (tests record it with fires). */
    long epochOf(final StoredTimeout timeout) {
        return leases.epochFor(timeout);
    }

    /**
     * The name this process leases slices under.
     *
     * @return the node id (the builder's, or host name and pid)
     */
    public String nodeId() {
        return nodeId;
    }

    @Override
    public String toString() {
        return "PostgresStore(" + names + ", node " + nodeId + ", lease " + lease + ")";
    }

    /**
     * The lease written into the slice rows: four fifths of the configured one. The rest is the
     * takeover's own delay (the survivors' next acquisition poll and the slice load), so a crashed
     * process's timeouts fire within the configured lease of the crash, not a lease plus a poll.
     */
    static Duration granted(final Duration lease) {
        return lease.multipliedBy(4).dividedBy(5);
    }

    private boolean near(final Instant deadline) {
        return deadline.isBefore(clock.instant().plus(NOTIFY_WINDOW));
    }

    private void join(final Thread t) {
        try {
            t.join(lease.toMillis() * 2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Configures a {@link PostgresStore}.
     *
     * <p>Threading: not thread-safe; confined to the thread that builds.
     */
    public static final class Builder {
        private final DataSource dataSource;
        private TableNames names = TableNames.of("tickwheel_timeouts");
        private Statements sql;
        private String nodeId;
        private Duration lease = Duration.ofSeconds(10);
        private boolean createSchema = true;

        private Builder(final DataSource dataSource) {
            this.dataSource = dataSource;
        }

        /**
         * The table (default {@code tickwheel_timeouts}); {@code _slices} and {@code _version} are added for
         * the lease table and the sequence.
         *
         * @param name a lower-case identifier, optionally {@code schema.name}
         * @return this builder
         */
        public Builder table(final String name) {
            names = TableNames.of(name);
            return this;
        }

        /**
         * This process's name in the lease table (default host name and pid).
         *
         * @param id 1–200 characters, unique among the processes sharing the table
         * @return this builder
         */
        public Builder nodeId(final String id) {
            Args.text("nodeId", id);
            if (id.length() > 200) {
                throw new IllegalArgumentException("nodeId must be at most 200 characters, was " + id.length());
            }
            nodeId = id;
            return this;
        }

        /**
         * How long a crashed process's timeouts may wait before another process fires them (default
         * 10 s). Slice rows are leased for four fifths of it and renewed every fifth of that; the last
         * fifth covers the survivors' acquisition poll and load.
         *
         * @param duration between 1 s and 1 h
         * @return this builder
         */
        public Builder lease(final Duration duration) {
            lease = Args.lease(duration);
            return this;
        }

        /**
         * Whether {@link #build()} creates missing tables from {@code io/tickwheel/postgres/schema.sql}
         * (default true). Either way it refuses a table of the wrong shape.
         *
         * @param create false when a DBA applies the DDL
         * @return this builder
         */
        public Builder createSchema(final boolean create) {
            createSchema = create;
            return this;
        }

        /**
         * Creates (if asked) and checks the tables, and builds the store; it starts leasing on
         * {@link TimerStore#open}.
         *
         * @return the store
         * @throws UncheckedIOException  if PostgreSQL cannot be reached (the message names the table)
         * @throws IllegalStateException if the table is missing or has the wrong shape (named, with
         *                               each difference)
         */
        public PostgresStore build() {
            if (nodeId == null) {
                nodeId = defaultNodeId();
            }
            sql = new Statements(names);
            try {
                return new PostgresStore(this, Schema.prepare(dataSource, names, sql, createSchema));
            } catch (SQLException e) {
                throw Failures.wrap(names, "build (create or check the schema)", e);
            }
        }

        private static String defaultNodeId() {
            String host;
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "localhost";
            }
            return host + "-" + ProcessHandle.current().pid();
        }
    }
}
