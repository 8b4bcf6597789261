package io.tickwheel.bench.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The rounds' inter-core round trips are kept one per measured round, in order, so that the summary
 * can pair each with that round's figure ({@code StateMatch}).
 */
class RoundStatsTest {

    @Test
    void oneRoundTripPerMeasuredRound_inOrder_warmUpsCleared_failuresKeptInPlace() {
        ScheduleWorkload.RoundStats stats = new ScheduleWorkload.RoundStats();
        stats.interCore(42); // a warm-up round shaped as a measured one
        stats.reset();
        for (double trip : new double[] {70, 66, -1, 68, 339}) {
            stats.add(0, 0, 0);
            stats.interCore(trip);
        }
        Metrics m = new Metrics();
        stats.put(m);

        assertThat(m.asMap()).containsEntry("interCoreRoundTripNsRounds", "70.000,66.000,-1.000,68.000,339.000")
                .containsEntry("interCoreRoundTripNsMin", "66.0")
                .containsEntry("interCoreRoundTripNsMax", "339.0");
    }

    @Test
    void putSpread_keepsEveryRoundInOrder() {
        Metrics m = new Metrics();
        ScheduleWorkload.putSpread(m, "cpuNsPerOp", new double[] {67.4, 66.0, 70.25});

        assertThat(m.asMap()).containsEntry("cpuNsPerOpRounds", "67.400,66.000,70.250")
                .containsEntry("cpuNsPerOpMin", "66.0").containsEntry("cpuNsPerOpMax", "70.25");
    }
}
