package io.tickwheel.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.TimerTask;
import io.netty.util.Version;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Proves which Netty each Surefire run tests against: the pom runs every test of this module once
 * with netty-common 4.1 and once with 4.2, and names the expected version in a system property. If
 * the class path switch stopped working, this fails instead of the 4.2 run silently testing 4.1.
 */
class NettyVersionTest {

    static String expectedVersion() {
        String expected = System.getProperty("tickwheel.test.nettyVersion");
        assertThat(expected).as("system property tickwheel.test.nettyVersion (set by the pom's Surefire runs)")
                .isNotBlank();
        return expected;
    }

    static boolean netty42() {
        return expectedVersion().startsWith("4.2.");
    }

    @Test
    void classPath_hasTheNettyThisRunNames() {
        Map<String, Version> versions = Version.identify(NettyVersionTest.class.getClassLoader());
        assertThat(versions).containsKey("netty-common");
        assertThat(versions.get("netty-common").artifactVersion()).isEqualTo(expectedVersion());
    }

    @Test
    void cancelledCallback_isForwardedExactlyWhenNettyHasIt() throws Exception {
        boolean declared = hasCancelledMethod();
        assertThat(declared).as("TimerTask.cancelled exists on this Netty").isEqualTo(netty42());
        assertThat(CancelledCallback.available()).isEqualTo(declared);
    }

    private static boolean hasCancelledMethod() {
        try {
            TimerTask.class.getMethod("cancelled", io.netty.util.Timeout.class);
            return true;
        } catch (NoSuchMethodException absent) {
            return false;
        }
    }
}
