package io.tickwheel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.bench.timers.TimerCatalog;
import io.tickwheel.bench.timers.TimerSpec;
import io.tickwheel.bench.workloads.Workload;
import io.tickwheel.bench.workloads.WorkloadCatalog;
import org.junit.jupiter.api.Test;

/** The command line's defaults per mode. */
class OptionsTest {

    @Test
    void parse_quick_runsFourTimersAndW1ToW6WithoutScenarios() {
        Options o = Options.parse(new String[] {"--quick"});

        assertThat(o.timers).extracting(TimerSpec::id).containsExactlyElementsOf(
                Options.QUICK_TIMERS);
        assertThat(o.workloads).extracting(Workload::id)
                .containsExactly("W1", "W2", "W3", "W4", "W5", "W6");
        assertThat(o.scenarios).isEmpty();
    }

    @Test
    void parse_full_runsEveryTimerWorkloadAndScenario() {
        Options o = Options.parse(new String[] {"--full"});

        assertThat(o.timers).isEqualTo(TimerCatalog.all());
        assertThat(o.workloads).isEqualTo(WorkloadCatalog.workloads());
        assertThat(o.scenarios).isEqualTo(WorkloadCatalog.scenarios());
    }

    @Test
    void parse_timersGiven_overridesTheModesDefault() {
        Options o = Options.parse(new String[] {"--timers", "stpe", "--full"});

        assertThat(o.timers).extracting(TimerSpec::id).containsExactly("stpe");
    }
}
