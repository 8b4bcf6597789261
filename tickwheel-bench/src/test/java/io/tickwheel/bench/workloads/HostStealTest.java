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
    void readsTheStealFigureAndTheWholeOfTheCpuLine() throws IOException {
        HostSteal.Reading r = read("""
                cpu  91830 0 9181 77304 451 0 84 619 0 0
                cpu0 44935 0 4167 40223 51 0 14 295 0 0
                cpu1 46895 0 5013 37081 399 0 69 323 0 0
                intr 12345 0 0
                ctxt 999
                """);
        assertThat(r).isNotNull();
        assertThat(r.steal()).isEqualTo(619);
        assertThat(r.total()).as("user to steal; guest is inside user")
                .isEqualTo(91830 + 9181 + 77304 + 451 + 84 + 619);
    }

    @Test
    void knowsNothingWithoutTheFileOrTheFigure() throws IOException {
        assertThat(HostSteal.of(dir.resolve("absent")).read()).isNull();
        assertThat(read("cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\n")).as("a kernel without steal").isNull();
        assertThat(read("cpu  1 2 3 4 5 6 7 x\ncpu0 1 2 3 4 5 6 7 8\n")).isNull();
        assertThat(read("cpu0 1 2 3 4 5 6 7 8\n")).as("no summed line").isNull();
        assertThat(HostSteal.percent(null, new HostSteal.Reading(1, 2))).isNaN();
    }

    @Test
    void percentIsStolenTicksOverAllTheTicks() {
        // 200 of 1,000 ticks stolen: a fifth of the cores' time, whatever the tick or the CPU count.
        HostSteal.Reading from = new HostSteal.Reading(619, 100_000);
        HostSteal.Reading to = new HostSteal.Reading(819, 101_000);
        assertThat(HostSteal.percent(from, to)).isCloseTo(20.0, within(1e-9));
        assertThat(HostSteal.percent(to, to)).as("no tick passed").isNaN();
        assertThat(HostSteal.percent(from, new HostSteal.Reading(619, 100_500))).isZero();
    }

    @Test
    void theMachinesOwnFileIsReadWhereItExists() {
        HostSteal.Reading r = HostSteal.machine().read();
        if (Files.isReadable(Path.of("/proc/stat"))) {
            assertThat(r).isNotNull();
            assertThat(r.total()).isPositive();
            assertThat(r.steal()).isNotNegative().isLessThanOrEqualTo(r.total());
        } else {
            assertThat(r).isNull();
        }
    }
}
