package io.tickwheel.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tickwheel.netty.NettyTimer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Dsl;
import org.asynchttpclient.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * AsyncHttpClient with tickwheel as its Netty timer, against an HTTP server on loopback that this test
 * starts: {@code /fast} answers at once, {@code /slow} only when the test ends. The request timeout
 * fires through tickwheel. The first test's client setup is the README's lines, verbatim.
 */
class AsyncHttpClientTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private final ExecutorService serverThreads = Executors.newCachedThreadPool();
    private HttpServer server;
    private String base;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/fast", exchange -> answer(exchange, "fast"));
        server.createContext("/slow", exchange -> {
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(exchange, "slow");
        });
        server.setExecutor(serverThreads);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stopServer() {
        release.countDown();
        server.stop(0);
        serverThreads.shutdownNow();
    }

    private static void answer(final HttpExchange exchange, final String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Test
    void readmeLines_answersAndTimesOutASlowRequest() throws Exception {
        // Long enough for the first request of a cold JVM on a busy machine (class loading, connect).
        Duration requestTimeout = Duration.ofSeconds(2);

        AsyncHttpClient http = Dsl.asyncHttpClient(Dsl.config()
                .setNettyTimer(NettyTimer.shared())
                .setRequestTimeout(requestTimeout));

        try (http) {
            Response fast = http.prepareGet(base + "/fast").execute().get(10, TimeUnit.SECONDS);
            assertThat(fast.getResponseBody()).isEqualTo("fast");
            assertTimesOut(http, requestTimeout);
        }
    }

    @Test
    void requestTimeout_isScheduledAndFiredByTheTickwheelWorker() throws Exception {
        Duration requestTimeout = Duration.ofMillis(250);
        ObservedTimer wheel = new ObservedTimer();
        NettyTimer timer = NettyTimer.wrap(wheel);
        try (AsyncHttpClient http = Dsl.asyncHttpClient(Dsl.config()
                .setNettyTimer(timer)
                .setRequestTimeout(requestTimeout)
                .setShutdownQuietPeriod(Duration.ZERO))) {
            assertTimesOut(http, requestTimeout);
            assertThat(wheel.runs()).as("AsyncHttpClient's request timeout ran on tickwheel's worker")
                    .anySatisfy(run -> {
                        assertThat(run.task()).contains("RequestTimeoutTimerTask");
                        assertThat(run.thread()).isEqualTo(ObservedTimer.WORKER);
                        assertThat(run.delayNanos()).isBetween(1L, requestTimeout.toNanos());
                    });
        } finally {
            timer.stop();
        }
    }

    private void assertTimesOut(final AsyncHttpClient http, final Duration requestTimeout) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> http.prepareGet(base + "/slow").execute().get(15, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(TimeoutException.class)
                .hasMessageContaining("Request timeout");
        // Left alone, /slow answers only when the test ends; so the timeout came from the timer.
        assertThat(System.nanoTime() - start).as("never before the request timeout")
                .isGreaterThanOrEqualTo(requestTimeout.toNanos());
    }
}
