package io.tickwheel.bench.ses;

import io.tickwheel.HierarchicalWheelTimer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One subject of {@link SesComparison}'s {@code ses-churn 10k} alone in its JVM, round after
 * round, for A/B runs of the executor adapter: launch it alternately with the classes under test
 * first on the class path, so both see the same machine state. {@link SesComparison} runs four
 * subjects in one JVM, whose calls through {@code ScheduledExecutorService} the JIT then sees
 * with four receivers; here it sees one, as a service that uses one executor does.
 *
 * <p>Usage: {@code SesRounds wheel|stpe|stpe-remove [rounds]} (default 7); prints each round,
 * then the mean of all but the first two.
 *
 * <p>Threading: not thread-safe; run from one thread.
 */
public final class SesRounds {

    private static final int OPS = 2_000_000;
    private static final int OUTSTANDING = 10_000;
    private static final int WARM_UP_ROUNDS = 2;

    private SesRounds() {
    }

    /**
     * Runs the rounds and prints them.
     *
     * @param args the subject, then optionally the number of rounds
     */
    public static void main(final String[] args) {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: SesRounds wheel|stpe|stpe-remove [rounds]");
        }
        String subject = args[0];
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        if (rounds <= WARM_UP_ROUNDS) {
            throw new IllegalArgumentException("rounds must be more than " + WARM_UP_ROUNDS + ": " + rounds);
        }
        SesComparison.SesSubject executor = switch (subject) {
            case "wheel" -> SesComparison.wheel("WheelSES on HierarchicalWheelTimer 1ms",
                    () -> HierarchicalWheelTimer.builder().build());
            case "stpe" -> SesComparison.stpe("STPE(1)", false);
            case "stpe-remove" -> SesComparison.stpe("STPE(1) removeOnCancel", true);
            default -> throw new IllegalArgumentException("unknown subject: " + subject);
        };
        SesChurn churn = new SesChurn(OPS, OUTSTANDING, 42);
        List<Measurement> measured = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            Measurement m = churn.run(executor.name(), executor.factory(), executor.close());
            System.out.printf(Locale.ROOT, "round %d: %.1f wall, %.1f process CPU, %.1f caller CPU ns/op%n",
                    round + 1, m.wallNanosPerOp(), m.cpuNanosPerOp(), m.callerCpuNanosPerOp());
            if (round >= WARM_UP_ROUNDS) {
                measured.add(m);
            }
        }
        System.out.println(summaryLine(subject, WARM_UP_ROUNDS + 1, rounds,
                measured.stream().mapToDouble(Measurement::wallNanosPerOp).average().orElseThrow(),
                measured.stream().mapToDouble(Measurement::cpuNanosPerOp).average().orElseThrow(),
                measured.stream().mapToDouble(Measurement::callerCpuNanosPerOp).average().orElseThrow()));
    }

    /**
     * The last line printed: the means of the measured rounds, which {@link SesPairs} reads back.
     *
     * @param subject the subject's name
     * @param from the first measured round
     * @param to the last
     * @param wall mean wall ns per operation
     * @param processCpu mean process CPU ns per operation
     * @param callerCpu mean caller CPU ns per operation
     * @return the line, without a line break
     */
    static String summaryLine(final String subject, final int from, final int to, final double wall,
            final double processCpu, final double callerCpu) {
        return String.format(Locale.ROOT,
                "%s, mean of rounds %d-%d: %.1f wall, %.1f process CPU, %.1f caller CPU ns/op",
                subject, from, to, wall, processCpu, callerCpu);
    }
}
