package io.tickwheel.bench.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a run's metrics keep, and the quick mode's sizes. */
class MetricsTest {

    @Test
    void put_nonFiniteNumber_isLeftOutAndListedAsNotMeasured() {
        Metrics m = new Metrics();
        m.put("a", 1.5);
        m.put("b", Double.NaN);
        m.put("c", Double.POSITIVE_INFINITY);

        assertThat(m.asMap()).containsEntry("a", "1.5").doesNotContainKeys("b", "c")
                .containsEntry(Metrics.NOT_MEASURED, "b,c");
    }

    @Test
    void put_nonFiniteOverAnEarlierValue_removesIt() {
        Metrics m = new Metrics();
        m.put("a", 2.0);
        m.put("a", Double.NaN);

        assertThat(m.asMap()).doesNotContainKey("a").containsEntry(Metrics.NOT_MEASURED, "a");
    }

    @Test
    void sizes_quickMode_runsTheCountedWorkloadsAtFullSize() {
        Sizes quick = new Sizes(false, 1);
        Sizes full = new Sizes(true, 1);

        assertThat(quick.scheduleCount()).isEqualTo(full.scheduleCount()).isEqualTo(1_000_000);
        assertThat(quick.churnOps()).isEqualTo(full.churnOps());
        assertThat(quick.accuracyCount()).isEqualTo(full.accuracyCount());
        assertThat(quick.farCount()).isEqualTo(full.farCount());
        assertThat(quick.burstCount()).isEqualTo(full.burstCount());
        assertThat(quick.warmupRounds()).isEqualTo(full.warmupRounds()).isEqualTo(2);
        assertThat(quick.rounds()).isEqualTo(full.rounds()).isEqualTo(5);
        assertThat(quick.idleNanos()).isLessThan(full.idleNanos());
    }
}
