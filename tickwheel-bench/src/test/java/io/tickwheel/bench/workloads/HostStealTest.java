package io.tickwheel.bench.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host's steal share, read from files in {@code /proc/stat}'s format. */
class HostStealTest {

    @TempDir
    Path dir;

    private HostSteal.Reading read(final String text) throws IOException {
        Path file = dir.resolve("stat");
        Files.writeString(file, text);
        return HostSteal.of(file).read();
    }

    @Test
    void readsTheStealFigureAndCountsTheCpus() throws IOException {
        HostSteal.Reading r = read("""
                cpu  91830 0 9181 77304 451 0 84 619 0 0
                cpu0 44935 0 4167 40223 51 0 14 295 0 0
                cpu1 46895 0 5013 37081 399 0 69 323 0 0
                intr 12345 0 0
                ctxt 999
                """);
        assertThat(r).isNotNull();
        assertThat(r.ticks()).isEqualTo(619);
        assertThat(r.cpus()).isEqualTo(2);
    }

    @Test
    void knowsNothingWithoutTheFileOrTheFigure() throws IOException {
        assertThat(HostSteal.of(dir.resolve("absent")).read()).isNull();
        assertThat(read("cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\n")).as("a kernel without steal").isNull();
        assertThat(read("cpu  1 2 3 4 5 6 7 x\ncpu0 1 2 3 4 5 6 7 8\n")).isNull();
        assertThat(read("cpu  1 2 3 4 5 6 7 8\n")).as("no per-CPU lines").isNull();
        assertThat(HostSteal.percent(null, new HostSteal.Reading(1, 2, 5))).isNaN();
    }

    @Test
    void percentIsStolenTimeOverAllTheCoresTime() {
        // 200 ticks (2 s) stolen in 5 s on 2 cores: 2 of 10 core-seconds.
        HostSteal.Reading from = new HostSteal.Reading(619, 2, 1_000_000_000L);
        HostSteal.Reading to = new HostSteal.Reading(819, 2, 6_000_000_000L);
        assertThat(HostSteal.percent(from, to)).isCloseTo(20.0, within(1e-9));
        assertThat(HostSteal.percent(to, to)).as("no time passed").isNaN();
        assertThat(HostSteal.percent(from, new HostSteal.Reading(619, 2, 2_000_000_000L))).isZero();
    }

    @Test
    void theMachinesOwnFileIsReadWhereItExists() {
        HostSteal.Reading r = HostSteal.machine().read();
        if (Files.isReadable(Path.of("/proc/stat"))) {
            assertThat(r).isNotNull();
            assertThat(r.cpus()).isPositive();
            assertThat(r.ticks()).isNotNegative();
        } else {
            assertThat(r).isNull();
        }
    }
}
