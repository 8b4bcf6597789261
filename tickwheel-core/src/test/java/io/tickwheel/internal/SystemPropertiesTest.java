package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

@Isolated("sets a system property every timer reads")
class SystemPropertiesTest {

    @AfterEach
    void clear() {
        System.clearProperty(SystemProperties.INSTANCE_WARNING_THRESHOLD);
    }

    @Test
    void instanceWarningThreshold_unset_is64() {
        System.clearProperty(SystemProperties.INSTANCE_WARNING_THRESHOLD);
        assertThat(SystemProperties.instanceWarningThreshold()).isEqualTo(64);
    }

    @Test
    void instanceWarningThreshold_set_isRead_zeroMeansOff() {
        System.setProperty(SystemProperties.INSTANCE_WARNING_THRESHOLD, " 3 ");
        assertThat(SystemProperties.instanceWarningThreshold()).isEqualTo(3);
        System.setProperty(SystemProperties.INSTANCE_WARNING_THRESHOLD, "0");
        assertThat(SystemProperties.instanceWarningThreshold()).isZero();
    }

    @Test
    void instanceWarningThreshold_garbageOrNegative_fallsBackTo64() {
        System.setProperty(SystemProperties.INSTANCE_WARNING_THRESHOLD, "lots");
        assertThat(SystemProperties.instanceWarningThreshold()).isEqualTo(64);
        System.setProperty(SystemProperties.INSTANCE_WARNING_THRESHOLD, "-1");
        assertThat(SystemProperties.instanceWarningThreshold()).isEqualTo(64);
    }
}
