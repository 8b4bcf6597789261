package io.tickwheel.bench.workloads;

import static org.assertj.core.api.Assertions.assertThat;

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
}
