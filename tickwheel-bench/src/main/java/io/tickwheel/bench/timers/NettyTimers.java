package io.tickwheel.bench.timers;

import io.tickwheel.bench.timers.netty.NettyHashedTimer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Makes Netty timers of either major line. Netty 4.1 is an ordinary dependency. Netty 4.2 has
 * the same coordinates, so it cannot share the class path: the build copies its netty-common jar
 * into this module's resources ({@value #NETTY_42_JAR}), and it is loaded here through an
 * {@code IsolatingClassLoader} that also defines a second copy of {@link NettyHashedTimer}
 * linked against it. Calls then go through {@link BenchTimer} with no reflection.
 *
 * <p>Threading: thread-safe (the 4.2 loader is created once, under the class lock).
 */
public final class NettyTimers {

    /** Where the build puts netty-common 4.2 on the class path. */
    public static final String NETTY_42_JAR = "peers/netty-common-4.2.jar";

    private static final String ADAPTER = NettyHashedTimer.class.getName();

    private static ClassLoader netty42;

    private NettyTimers() {
    }

    /**
     * Makes a Netty 4.1 timer.
     *
     * @param tickMillis the tick in milliseconds
     * @param ticksPerWheel the wheel length
     * @return the adapter
     */
    public static BenchTimer netty41(final long tickMillis, final int ticksPerWheel) {
        return new NettyHashedTimer("netty41", tickMillis, ticksPerWheel);
    }

    /**
     * Makes a Netty 4.2 timer.
     *
     * @param tickMillis the tick in milliseconds
     * @param ticksPerWheel the wheel length
     * @return the adapter
     */
    public static BenchTimer netty42(final long tickMillis, final int ticksPerWheel) {
        try {
            Class<?> type = Class.forName(ADAPTER, true, netty42Loader());
            return (BenchTimer) type.getConstructor(String.class, long.class, int.class)
                    .newInstance("netty42", tickMillis, ticksPerWheel);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load the Netty 4.2 adapter", e);
        }
    }

    private static synchronized ClassLoader netty42Loader() {
        if (netty42 == null) {
            netty42 = new IsolatingClassLoader(netty42Jar(), NettyTimers.class.getClassLoader(),
                    ADAPTER.substring(0, ADAPTER.lastIndexOf('.') + 1));
        }
        return netty42;
    }

    private static URL netty42Jar() {
        URL url = NettyTimers.class.getClassLoader().getResource(NETTY_42_JAR);
        if (url == null) {
            throw new IllegalStateException(NETTY_42_JAR + " is not on the class path; "
                    + "build the module with Maven, which copies it there");
        }
        if ("file".equals(url.getProtocol())) {
            return url;
        }
        try (InputStream in = url.openStream()) {
            Path copy = Files.createTempFile("netty-common-4.2-", ".jar");
            copy.toFile().deleteOnExit();
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            return copy.toUri().toURL();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + NETTY_42_JAR, e);
        }
    }
}
