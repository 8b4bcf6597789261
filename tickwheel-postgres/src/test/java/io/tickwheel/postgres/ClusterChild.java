package io.tickwheel.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.tickwheel.durable.DurableTimeout;
import io.tickwheel.durable.DurableTimer;
import io.tickwheel.durable.StoredTimeout;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * One process of the multi-process tests, started by {@link ClusterProcessTest} as a child JVM:
 * opens a {@link PostgresStore} on the given table with a {@link TestDriver} (or, with a fourth
 * argument {@code durable}, the real {@code DurableTimer}), prints
 * {@code READY}, then one line per fire, {@code F <node> <type> <key> <version> <slice> <epoch>
 * <wall ms>}, flushed at once (the side channel the parent checks), until its standard input
 * closes or it is killed.
 */
public final class ClusterChild {

    private ClusterChild() {
    }

    public static void main(final String[] args) throws Exception {
        String table = args[0];
        String node = args[1];
        Duration lease = Duration.ofMillis(Long.parseLong(args[2]));
        boolean durable = args.length > 3 && args[3].equals("durable");
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (HikariDataSource ds = Pg.pool(node, 6)) {
            PostgresStore store = PostgresStore.builder(ds).table(table).nodeId(node).lease(lease).build();
            Consumer<DurableTimeout> report = t -> {
                long version = t instanceof StoredTimeout s ? s.version() : -1;
                long epoch = t instanceof StoredTimeout s ? store.epochOf(s) : -1;
                String line = "F " + node + " " + t.type() + " " + t.key() + " " + version + " "
                        + Notice.sliceOf(Notice.micros(t.deadline())) + " " + epoch + " " + System.currentTimeMillis();
                synchronized (out) {
                    out.println(line);
                    out.flush();
                }
            };
            try (AutoCloseable timer = durable
                    ? DurableTimer.builder(store).handler("job", report::accept).build()
                    : new TestDriver(store, report::accept).open()) {
                synchronized (out) {
                    out.println("READY " + node + " " + timer.getClass().getSimpleName());
                    out.flush();
                }
                while (System.in.read() >= 0) {
                    // runs until the parent closes our stdin (or kills us)
                }
            }
        }
    }
}
