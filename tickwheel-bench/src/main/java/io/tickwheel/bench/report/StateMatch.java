package io.tickwheel.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Compares two runs over the rounds they measured in one machine state, when their rounds as a
 * whole met two. Each W1 and W2 round records the inter-core round trip just before its loop
 * ({@code io.tickwheel.bench.workloads.InterCore}); on this project's VM it is either near (about
 * 65 ns) or far (about 330 ns), and it can change from one round to the next. A median over rounds
 * from both states compares the machine, which is why the summary marks such a ratio NOT
 * COMPARABLE; the rounds each run measured in the same state compare the timers. The states are
 * found by cutting the sorted round trips of both runs wherever one is more than twice the smallest
 * of its group; a state in which both runs have at least {@link #MIN_ROUNDS} rounds gives a ratio.
 * Rounds are chosen by their round trip alone, never by their figures; when several states give a
 * ratio (runs of more than five rounds), a bar holds only if it holds in each.
 *
 * <p>Threading: stateless.
 */
final class StateMatch {

    /**
     * The fewest rounds of each run a matched ratio is taken over: a median of three, as a run's own
     * is of five (single rounds of one timer differ by up to 2 x on this VM, see {@code Sizes}).
     */
    static final int MIN_ROUNDS = 3;
    /** Round trips within this factor of each other are one machine state (as the summary's check). */
    private static final double SAME_STATE = 2.0;
    private static final String INTER_CORE_ROUNDS = "interCoreRoundTripNsRounds";

    /**
     * A ratio over matched rounds.
     *
     * @param state the matched rounds' inter-core round trips, e.g. "64-78 ns"
     * @param ours our median over the matched rounds
     * @param theirs the peer's median over its matched rounds
     * @param ourRounds how many of our rounds matched, of {@code ourTotal}
     * @param ourTotal our rounds
     * @param theirRounds how many of the peer's matched, of {@code theirTotal}
     * @param theirTotal the peer's rounds
     * @param ourLow our matched rounds' smallest value
     * @param ourHigh their largest
     * @param theirLow the peer's matched rounds' smallest value
     * @param theirHigh their largest
     */
    record Matched(String state, double ours, double theirs, int ourRounds, int ourTotal, int theirRounds,
            int theirTotal, double ourLow, double ourHigh, double theirLow, double theirHigh) {

        double ratio() {
            return ours / theirs;
        }

        /** How the ratio was taken, for a bar's or a row's text. */
        String describe(final String format) {
            return String.format(Locale.ROOT, "over the rounds both measured with the inter-core round trip at %s "
                    + "(tickwheel %d of %d, the peer %d of %d): " + format + " vs " + format + " = %.2f x", state,
                    ourRounds, ourTotal, theirRounds, theirTotal, ours, theirs, ratio());
        }
    }

    private StateMatch() {
    }

    /**
     * Matches the rounds of {@code key} in two runs by machine state.
     *
     * @param ours tickwheel's run
     * @param peer the peer's run
     * @param key the per-round figure, e.g. {@code cpuNsPerOp} (its rounds under {@code key + "Rounds"})
     * @return one ratio per state in which both runs have at least {@link #MIN_ROUNDS} rounds, in
     *     order of round trip (with five rounds a run, at most one); empty when a run did not record
     *     its rounds or no state has enough rounds of both
     */
    static List<Matched> of(final RunResult ours, final RunResult peer, final String key) {
        double[] ourTrips = list(ours, INTER_CORE_ROUNDS);
        double[] ourValues = list(ours, key + "Rounds");
        double[] theirTrips = list(peer, INTER_CORE_ROUNDS);
        double[] theirValues = list(peer, key + "Rounds");
        if (ourTrips == null || ourValues == null || theirTrips == null || theirValues == null
                || ourTrips.length != ourValues.length || theirTrips.length != theirValues.length) {
            return List.of();
        }
        List<Matched> matched = new ArrayList<>();
        for (double[] state : states(ourTrips, theirTrips)) {
            double low = state[0];
            double high = state[1];
            double[] mine = pick(ourTrips, ourValues, low, high);
            double[] theirs = pick(theirTrips, theirValues, low, high);
            if (mine.length >= MIN_ROUNDS && theirs.length >= MIN_ROUNDS) {
                matched.add(new Matched(String.format(Locale.ROOT, "%.0f-%.0f ns", low, high), median(mine),
                        median(theirs), mine.length, ourTrips.length, theirs.length, theirTrips.length, min(mine),
                        max(mine), min(theirs), max(theirs)));
            }
        }
        return matched;
    }

    /**
     * How many machine states the two runs' rounds met.
     *
     * @param ours tickwheel's run
     * @param peer the peer's run
     * @return the count, 0 when a run did not record its rounds' round trips
     */
    static int stateCount(final RunResult ours, final RunResult peer) {
        double[] ourTrips = list(ours, INTER_CORE_ROUNDS);
        double[] theirTrips = list(peer, INTER_CORE_ROUNDS);
        return ourTrips == null || theirTrips == null ? 0 : states(ourTrips, theirTrips).size();
    }

    /**
     * The states: every round trip of both runs, sorted, cut wherever one is more than twice the
     * smallest of its group (about 28 ns with both threads on one core's siblings, 65 near, 330 far
     * on this project's VM), as the summary's check judges two round trips one state. A failed
     * measurement (-1) is in no state.
     */
    private static List<double[]> states(final double[] ourTrips, final double[] theirTrips) {
        double[] all = Arrays.stream(concat(ourTrips, theirTrips)).filter(t -> t > 0).sorted().toArray();
        List<double[]> states = new ArrayList<>();
        int i = 0;
        while (i < all.length) {
            double low = all[i];
            int j = i;
            while (j < all.length && all[j] <= SAME_STATE * low) {
                j++;
            }
            states.add(new double[] {low, all[j - 1]});
            i = j;
        }
        return states;
    }

    /** The values of the rounds whose round trip lies in [low, high]. */
    private static double[] pick(final double[] trips, final double[] values, final double low, final double high) {
        List<Double> picked = new ArrayList<>();
        for (int i = 0; i < trips.length; i++) {
            if (trips[i] >= low && trips[i] <= high) {
                picked.add(values[i]);
            }
        }
        return picked.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double[] concat(final double[] a, final double[] b) {
        double[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** A run's comma-separated list, or null if it has none or one entry is not a number. */
    private static double[] list(final RunResult run, final String key) {
        String text = run.metrics().get(key);
        if (text == null || text.isBlank()) {
            return null;
        }
        String[] parts = text.split(",", -1);
        double[] values = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                values[i] = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                return null;
            }
            if (!Double.isFinite(values[i])) {
                return null;
            }
        }
        return values;
    }

    /** The smallest positive value (a failed measurement is -1), or {@code Double.MAX_VALUE}. */
    private static double min(final double[] values) {
        return Arrays.stream(values).filter(v -> v > 0).min().orElse(Double.MAX_VALUE);
    }

    private static double max(final double[] values) {
        return Arrays.stream(values).max().orElse(0);
    }

    /** The median, or the upper middle of an even count, as the workloads take a run's own. */
    static double median(final double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
