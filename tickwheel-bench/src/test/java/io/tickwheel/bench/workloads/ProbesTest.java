package io.tickwheel.bench.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The compiler-thread probe that keeps JIT work out of measured loops. */
class ProbesTest {

    @Test
    void compilerCpuNanos_findsTheCompilerThreadsAndNeverGoesBack() {
        assertThat(ThreadTimes.INSTANCE.available()).as("CI runs on Linux, with /proc").isTrue();
        long first = Probes.compilerCpuNanos();
        // Code that runs often enough to be compiled, so the compiler threads have worked.
        long sum = 0;
        for (int i = 0; i < 200_000; i++) {
            sum += Long.toString(i).hashCode();
        }
        long second = Probes.compilerCpuNanos();

        assertThat(sum).isNotZero();
        assertThat(first).as("a JVM that ran the test framework has compiled something").isPositive();
        assertThat(second).isGreaterThanOrEqualTo(first);
    }

    @Test
    void awaitQuietCompiler_returnsWithinItsBound() throws InterruptedException {
        long start = System.nanoTime();
        long waited = Probes.awaitQuietCompiler();
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(waited).isBetween(0L, 2_500L);
        assertThat(elapsedMs).isLessThan(3_000L);
    }

    @Test
    void processCpuNanos_countsALiveThreadsWorkAndKeepsItAfterTheThreadExits() throws InterruptedException {
        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(30);
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            spun.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long before = Probes.processCpuNanos();
        worker.start();
        assertThat(spun.await(10, TimeUnit.SECONDS)).isTrue();
        long whileAlive = Probes.processCpuNanos();
        release.countDown();
        worker.join(10_000);
        long afterExit = Probes.processCpuNanos();

        assertThat(worker.isAlive()).isFalse();
        // 30 ms of spinning on two cores is at least ~15 ms of CPU, read in nanoseconds (not 10 ms ticks).
        assertThat(whileAlive - before).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(15));
        assertThat(afterExit).as("an exited thread keeps its last reading").isGreaterThanOrEqualTo(whileAlive);
    }

    @Test
    void minorFaults_readsAGrowingCountFromProcSelfStat() {
        long first = Probes.minorFaults();
        byte[][] pages = new byte[2_000][];
        for (int i = 0; i < pages.length; i++) {
            pages[i] = new byte[4096];
            pages[i][0] = 1;
        }
        long second = Probes.minorFaults();

        assertThat(pages[pages.length - 1][0]).isEqualTo((byte) 1);
        assertThat(first).as("field 10 of /proc/self/stat").isPositive();
        assertThat(second).isGreaterThanOrEqualTo(first);
    }

    @Test
    void interCoreRoundTrip_isMeasuredBetweenTwoCores() throws InterruptedException {
        double first = InterCore.roundTripNanos(InterCore.TRIPS);
        double second = InterCore.roundTripNanos(InterCore.TRIPS);

        // A cache line's round trip between two cores: tens to hundreds of nanoseconds on any
        // machine CI runs on (two cores); -1 would mean the 2 s bound was hit.
        assertThat(first).isBetween(5.0, 20_000.0);
        assertThat(second).isBetween(5.0, 20_000.0);
    }
}
