package io.tickwheel.it;

import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The local Redis the Lettuce tests need (127.0.0.1:6379), spoken to over a plain socket so that
 * pausing it does not depend on the client under test. A missing server fails the test with a
 * message that says how to start one; it never skips.
 *
 * <p>Threading: not thread-safe; one per test.
 */
final class Redis {

    static final String HOST = "127.0.0.1";
    static final int PORT = 6379;

    private Redis() {
    }

    /** Fails the calling test unless Redis answers PING on 127.0.0.1:6379. */
    static void require() {
        String reply;
        try {
            reply = command("PING");
        } catch (IOException e) {
            reply = e.toString();
        }
        if (!"+PONG".equals(reply)) {
            fail("Redis is not reachable on " + HOST + ":" + PORT + " (" + reply + "). These tests need a real"
                    + " server: run `bash .ci/services`, or `redis-server --daemonize yes --bind 127.0.0.1"
                    + " --port 6379 --save \"\" --appendonly no`.");
        }
    }

    /** Sends one command on a fresh connection and returns the first line of the reply. */
    static String command(final String... args) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), PORT), 2_000);
            socket.setSoTimeout(5_000);
            StringBuilder request = new StringBuilder().append('*').append(args.length).append("\r\n");
            for (String arg : args) {
                request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n")
                        .append(arg).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(
                    new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            return in.readLine();
        }
    }
}
