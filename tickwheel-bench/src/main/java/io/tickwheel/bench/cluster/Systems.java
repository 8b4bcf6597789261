package io.tickwheel.bench.cluster;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tickwheel.postgres.PostgresStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BiConsumer;
import javax.sql.DataSource;

/**
 * The two systems of the cluster benchmark, set up the same way in the parent and in every node:
 * tickwheel-postgres (its defaults, a 10 s lease) and db-scheduler with the settings its README
 * recommends for PostgreSQL at high throughput: the documented {@code scheduled_tasks} DDL, the
 * {@code lock-and-fetch} polling strategy ({@code SELECT ... FOR UPDATE SKIP LOCKED}) at
 * {@code (1.0, 4.0)} with 20 threads, a 1 s polling interval (its default is 10 s, which would make its
 * lateness 10 s), and dead-execution detection after 5 missed 2 s heartbeats (10 s, the same as our
 * lease; its default is 6 × 5 min).
 *
 * <p>Threading: stateless.
 */
final class Systems {

    static final String TICKWHEEL = "tickwheel";
    static final String DB_SCHEDULER = "db-scheduler";
    static final String SCHEMA = "tw_cluster_bench";
    static final String TW_TABLE = SCHEMA + ".timeouts";
    static final String DBS_TABLE = SCHEMA + ".scheduled_tasks";
    static final Duration LEASE = Duration.ofSeconds(10);
    static final String TASK = "bench";

    private Systems() {
    }

    static HikariDataSource pool(final String url, final String name, final int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setPoolName(name);
        config.addDataSourceProperty("ApplicationName", name);
        return new HikariDataSource(config);
    }

    /** Drops and recreates the schema: our table (by the store) and db-scheduler's documented DDL. */
    static void resetSchema(final DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            s.execute("CREATE SCHEMA " + SCHEMA);
            s.execute("CREATE TABLE " + DBS_TABLE + " (task_name text NOT NULL, task_instance text NOT NULL,"
                    + " task_data bytea, execution_time timestamp with time zone NOT NULL, picked boolean NOT NULL,"
                    + " picked_by text, last_success timestamp with time zone,"
                    + " last_failure timestamp with time zone, consecutive_failures int,"
                    + " last_heartbeat timestamp with time zone, version bigint NOT NULL, priority smallint,"
                    + " PRIMARY KEY (task_name, task_instance))");
            s.execute("CREATE INDEX execution_time_idx ON " + DBS_TABLE + " (execution_time)");
            s.execute("CREATE INDEX last_heartbeat_idx ON " + DBS_TABLE + " (last_heartbeat)");
            s.execute("CREATE INDEX priority_execution_time_idx ON " + DBS_TABLE
                    + " (priority desc, execution_time asc)");
        }
        PostgresStore.builder(ds).table(TW_TABLE).build().close();
    }

    static OneTimeTask<byte[]> dbSchedulerTask(final BiConsumer<String, Instant> onFire) {
        return Tasks.oneTime(TASK, byte[].class)
                .execute((instance, ctx) -> onFire.accept(instance.getId(), ctx.getExecution().executionTime));
    }

    static Scheduler dbScheduler(final DataSource ds, final OneTimeTask<byte[]> task, final String node) {
        return Scheduler.create(ds, task)
                .tableName(DBS_TABLE)
                .schedulerName(new SchedulerName.Fixed(node))
                .threads(20)
                .pollUsingLockAndFetch(1.0, 4.0)
                .pollingInterval(Duration.ofSeconds(1))
                .heartbeatInterval(Duration.ofSeconds(2))
                .missedHeartbeatsLimit(5)
                .build();
    }

    /** The parent's way to schedule into one system. */
    interface Scheduling extends AutoCloseable {
        void schedule(String key, byte[] payload, Instant deadline);

        @Override
        void close();
    }

    static Scheduling scheduling(final String system, final DataSource ds) {
        if (system.equals(TICKWHEEL)) {
            PostgresStore store = PostgresStore.builder(ds).table(TW_TABLE).nodeId("bench-parent").build();
            return new Scheduling() {
                @Override
                public void schedule(final String key, final byte[] payload, final Instant deadline) {
                    store.schedule(TASK, key, payload, deadline).join();
                }

                @Override
                public void close() {
                    store.close();
                }
            };
        }
        OneTimeTask<byte[]> task = dbSchedulerTask((k, d) -> { });
        SchedulerClient client = SchedulerClient.Builder.create(ds, task).tableName(DBS_TABLE).build();
        return new Scheduling() {
            @Override
            public void schedule(final String key, final byte[] payload, final Instant deadline) {
                client.scheduleIfNotExists(task.instance(key, payload), deadline); // keys are unique here
            }

            @Override
            public void close() {
                // the client holds nothing
            }
        };
    }

    /** The table (and for tickwheel its lease table) that holds one system's pending timeouts. */
    static String[] tables(final String system) {
        return system.equals(TICKWHEEL) ? new String[] {TW_TABLE, TW_TABLE + "_slices"} : new String[] {DBS_TABLE};
    }
}
