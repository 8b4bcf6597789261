package io.tickwheel.bench.cluster;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.zaxxer.hikari.HikariDataSource;
import io.tickwheel.durable.DurableTimer;
import io.tickwheel.postgres.PostgresStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * One process of the cluster benchmark (a child JVM started by {@link ClusterBench}): runs either
 * tickwheel-postgres or db-scheduler on the benchmark's table and prints one line per fire,
 * {@code F <key> <fire epoch ms> <lateness µs>}, until its standard input closes or it is killed.
 *
 * <p>Threading: the handler runs on the system's own threads and prints under a lock.
 */
public final class ClusterNode {

    private ClusterNode() {
    }

    /**
     * Entry point.
     *
     * @param args system ({@code tickwheel} or {@code db-scheduler}), node id, JDBC URL
     * @throws IOException if standard input fails
     */
    public static void main(final String[] args) throws IOException {
        String system = args[0];
        String node = args[1];
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (HikariDataSource ds = Systems.pool(args[2], node, 24)) {
            AutoCloseable running;
            if (system.equals(Systems.TICKWHEEL)) {
                PostgresStore store = PostgresStore.builder(ds).table(Systems.TW_TABLE).nodeId(node)
                        .lease(Systems.LEASE).build();
                // The user's path: DurableTimer with its defaults (its own wheel, four handler threads).
                DurableTimer timer = DurableTimer.builder(store)
                        .handler(Systems.TASK, t -> record(out, t.key(), t.deadline())).build();
                running = timer; // closes the store too
            } else {
                OneTimeTask<byte[]> task = Systems.dbSchedulerTask((key, deadline) -> record(out, key, deadline));
                Scheduler scheduler = Systems.dbScheduler(ds, task, node);
                scheduler.start();
                running = scheduler::stop;
            }
            synchronized (out) {
                out.println("READY " + node);
                out.flush();
            }
            while (System.in.read() >= 0) {
                // runs until the parent closes our stdin (or kills us)
            }
            running.close();
        } catch (Exception e) {
            throw new IOException("node " + node + " failed", e);
        }
    }

    private static void record(final PrintStream out, final String key, final Instant deadline) {
        Instant now = Instant.now();
        long latenessMicros = Duration.between(deadline, now).toNanos() / 1000;
        synchronized (out) {
            out.println("F " + key + " " + now.toEpochMilli() + " " + latenessMicros);
            out.flush();
        }
    }
}
