package io.tickwheel.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.tickwheel.netty.NettyTimer;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Lettuce with tickwheel as its Netty timer, against the real Redis on 127.0.0.1:6379: commands work,
 * a command timeout against a paused server fires through tickwheel, and shutdown leaves no thread.
 * The first test's client setup is the README's lines, verbatim ({@link ReadmeLinesTest} checks).
 */
class LettuceTest {

    private final String key = "tickwheel-it:lettuce:" + UUID.randomUUID();

    @BeforeEach
    void needsRedis() {
        Redis.require();
    }

    @AfterEach
    void unpauseAndClean() throws Exception {
        Redis.command("CLIENT", "UNPAUSE");
        Redis.command("DEL", key);
    }

    @Test
    void readmeLines_commandsWork_pausedServerTimesOut_shutdownLeavesNoThread() throws Exception {
        Set<Thread> before = Threads.live();
        Duration commandTimeout = Duration.ofMillis(300);

        ClientResources resources = ClientResources.builder().timer(NettyTimer.shared()).build();
        RedisClient client = RedisClient.create(resources, RedisURI.create("redis://127.0.0.1:6379"));
        client.setOptions(ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled(commandTimeout)).build());

        StatefulRedisConnection<String, String> connection = client.connect();
        connection.sync().set(key, "one");
        assertThat(connection.sync().get(key)).isEqualTo("one");
        assertTimesOutWhilePaused(connection, commandTimeout);
        connection.close();

        client.shutdown();
        resources.shutdown().get();

        // Only the JVM-wide tickwheel worker may have been started (it is shared, and lives on).
        await().pollInSameThread().atMost(Duration.ofSeconds(20)).untilAsserted(
                () -> assertThat(Threads.startedSince(before)).as("threads left after Lettuce's shutdown")
                        .allMatch(name -> name.startsWith("tickwheel-shared-")));
    }

    @Test
    void commandTimeout_isScheduledAndFiredByTheTickwheelWorker() throws Exception {
        Set<Thread> before = Threads.live();
        Duration commandTimeout = Duration.ofMillis(250);
        ObservedTimer wheel = new ObservedTimer();
        NettyTimer timer = NettyTimer.wrap(wheel);
        ClientResources resources = ClientResources.builder().timer(timer).build();
        RedisClient client = RedisClient.create(resources, RedisURI.create("redis://127.0.0.1:6379"));
        client.setOptions(ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled(commandTimeout)).build());
        StatefulRedisConnection<String, String> connection = client.connect();
        int scheduledBefore = wheel.scheduled();
        connection.sync().set(key, "one");
        assertThat(wheel.scheduled()).as("the SET's timeout went to tickwheel").isGreaterThan(scheduledBefore);
        assertThat(wheel.runs()).as("a completed command's timeout is cancelled, not run").isEmpty();

        assertTimesOutWhilePaused(connection, commandTimeout);

        assertThat(wheel.runs()).as("the timeout task Lettuce scheduled ran on tickwheel's worker")
                .anySatisfy(run -> {
                    assertThat(run.task()).contains("ExpiryWriter");
                    assertThat(run.thread()).isEqualTo(ObservedTimer.WORKER);
                    assertThat(run.delayNanos()).isEqualTo(commandTimeout.toNanos());
                });
        connection.close();
        client.shutdown();
        resources.shutdown(0, 5, TimeUnit.SECONDS).get();
        assertThat(timer.stop()).as("Lettuce left no timeout pending").isEmpty();

        await().pollInSameThread().atMost(Duration.ofSeconds(20)).untilAsserted(
                () -> assertThat(Threads.startedSince(before))
                        .as("threads left after Lettuce's shutdown and the timer's stop").isEmpty());
    }

    /** Pauses the server's writes, sends a SET that cannot be answered in time, expects Lettuce's timeout. */
    private void assertTimesOutWhilePaused(final StatefulRedisConnection<String, String> connection,
            final Duration commandTimeout) throws Exception {
        assertThat(Redis.command("CLIENT", "PAUSE", "3000", "WRITE")).isEqualTo("+OK");
        long start = System.nanoTime();
        RedisFuture<String> set = connection.async().set(key, "two");
        assertThatThrownBy(() -> set.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(RedisCommandTimeoutException.class);
        long elapsed = System.nanoTime() - start;
        // A timeout exception at all means the timer fired: left alone, the SET succeeds when the pause ends.
        assertThat(elapsed).as("never before the command timeout").isGreaterThanOrEqualTo(commandTimeout.toNanos());
        assertThat(Redis.command("CLIENT", "UNPAUSE")).isEqualTo("+OK");
        // The connection still works once the server answers again.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(
                () -> assertThat(connection.sync().get(key)).isIn("one", "two"));
    }
}
