package io.tickwheel.bench.ses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link SesPairs} reads back from {@link SesRounds} and what it concludes from it. */
class SesPairsTest {

    @Test
    void parse_readsTheLastSummaryLineThatSesRoundsPrints() {
        List<String> output = List.of(
                "round 1: 140.0 wall, 150.0 process CPU, 139.0 caller CPU ns/op",
                SesRounds.summaryLine("wheel", 3, 5, 999.0, 999.0, 999.0),
                "round 7: 110.0 wall, 120.0 process CPU, 109.0 caller CPU ns/op",
                SesRounds.summaryLine("wheel", 3, 7, 104.5, 112.9, 103.5));

        SesPairs.Figures figures = SesPairs.parse(output);

        assertThat(figures).isEqualTo(new SesPairs.Figures(104.5, 112.9, 103.5));
    }

    @Test
    void parse_withoutASummary_failsWithTheChildsOutput() {
        assertThatThrownBy(() -> SesPairs.parse(List.of("Exception in thread \"main\" java.lang.OutOfMemoryError")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no summary line")
                .hasMessageContaining("OutOfMemoryError");
    }

    @Test
    void median_ofOddAndEvenCounts() {
        assertThat(SesPairs.median(new double[] {1.34, 0.99, 1.16})).isEqualTo(1.16);
        assertThat(SesPairs.median(new double[] {1.2, 1.0, 1.4, 1.1})).isCloseTo(1.15, offset(1e-12));
        assertThatThrownBy(() -> SesPairs.median(new double[0])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void summary_computesThePairsRatios_andSaysWhetherTheirMedianMeetsTheBar() {
        // Ratios 112.9/97.2 = 1.162, 119.1/104.7 = 1.138, 132.8/102.6 = 1.294.
        String missed = SesPairs.summary(new double[] {112.9, 119.1, 132.8}, new double[] {97.2, 104.7, 102.6}, "stpe");
        assertThat(missed)
                .contains("median 1.162 x the stpe's process CPU per operation over 3 pairs")
                .contains("the pairs' ratios span 1.14-1.29 (14 %)")
                .contains("the stpe's own figure moved 97.2-104.7 (8 %) and the wheel's 112.9-132.8 (18 %)")
                .endsWith("MISSED");

        String met = SesPairs.summary(new double[] {95, 102, 97}, new double[] {100, 100, 100}, "stpe");
        assertThat(met).contains("median 0.970 x the stpe's").endsWith(": met");

        // The bar is against the default executor: a variant gets a plain comparison, no verdict.
        String variant = SesPairs.summary(new double[] {95, 102, 97}, new double[] {100, 100, 100}, "stpe-remove");
        assertThat(variant).contains("median 0.970 x the stpe-remove's").contains("no worse than it: stpe-remove")
                .doesNotContain(": met").doesNotContain("MISSED");

        // 100.04 / 100 rounds to 1.00 at two places: the bar is decided on the median itself.
        String justAbove = SesPairs.summary(new double[] {100.04, 100.04, 100.04}, new double[] {100, 100, 100},
                "stpe");
        assertThat(justAbove).contains("median 1.000 x").endsWith("MISSED");

        String onePair = SesPairs.summary(new double[] {90}, new double[] {100}, "stpe");
        assertThat(onePair).contains("median 0.900 x").contains("fewer than 3 pairs").doesNotContain("span");
        assertThatThrownBy(() -> SesPairs.summary(new double[] {1, 2}, new double[] {1}, "stpe"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void summary_withPairsOnAHostThatTookTheCores_givesNoVerdict() {
        double[] wheel = {95, 102, 97};
        double[] jdk = {100, 100, 100};
        String noisy = SesPairs.summary(wheel, jdk, "stpe", new double[] {1.2, 19.6, 0.8});
        String quiet = SesPairs.summary(wheel, jdk, "stpe", new double[] {1.2, 5.0, 0.8});
        String unknown = SesPairs.summary(wheel, jdk, "stpe", new double[] {Double.NaN, Double.NaN, Double.NaN});

        assertThat(noisy).contains("0.8-19.6 %", "NOT COMPARABLE", "in 1 of 3 pairs").doesNotContain(": met");
        assertThat(quiet).contains("0.8-5.0 %", "median <= 1.000 x): met").doesNotContain("NOT COMPARABLE");
        assertThat(unknown).contains(": met").doesNotContain("the host took");
        assertThatThrownBy(() -> SesPairs.summary(wheel, jdk, "stpe", new double[] {1.0}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
