package io.tickwheel.durable.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.durable.JournalStore;
import io.tickwheel.durable.StoredTimeout;
import io.tickwheel.durable.TimerStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real crashes: a child JVM ({@link CrashChild}) schedules, cancels and fires durable timeouts from
 * several threads and is killed with SIGKILL ({@code Process.destroyForcibly()} on Linux) at random
 * moments, cycle after cycle, on one journal. After each kill this test opens the journal itself and
 * checks what the child acknowledged on its stdout:
 * <ul>
 *   <li>every acknowledged schedule that is the key's last acknowledged op is pending (at that
 *       version or a later one) or has fired;</li>
 *   <li>after an acknowledged cancel, the key is not pending, and no timeout of that key whose
 *       deadline was after the cancel's acknowledgement ever fires (one due earlier may have been
 *       firing already: counted, allowed);</li>
 *   <li>a timeout fires twice only across a kill (its handler ran, the kill came before the done
 *       record was durable), never twice in one process.</li>
 * </ul>
 * Keys with an op in flight at the kill (begun, not acknowledged) are counted and skipped for the
 * first two checks.
 *
 * <p>With the default 64 MiB segments a run never rolls a segment or compacts, so a second test runs
 * the same checks on a child with segments of a few KiB, few keys and a low compaction threshold: it
 * rolls and compacts many times a second, and some kills land in the middle of a compaction.
 */
class JournalCrashTest {

    private static final int CYCLES = Integer.getInteger("tickwheel.crash.cycles", 20);
    /** On a loaded machine fewer cycles fit; the test stops starting cycles after this, and says so. */
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(150);
    private static final int MIN_CYCLES = 8;
    /** The small-segment run: fewer, shorter cycles, within about a minute. */
    private static final int SMALL_CYCLES = Integer.getInteger("tickwheel.crash.smallCycles", 14);
    private static final long SMALL_BUDGET_NANOS = TimeUnit.SECONDS.toNanos(40);
    private static final int SMALL_MIN_CYCLES = 6;
    /** Segment size and compaction threshold of the small-segment child (bytes). */
    private static final String[] SMALL_SEGMENTS = {"3000", "12000"};

    @TempDir
    Path dir;
    @TempDir
    Path logs;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void killMinus9_manyCycles_nothingAcknowledgedIsLostAndNoCancelledTimeoutFires() throws Exception {
        Tally tally = cycles("crash test", CYCLES, MIN_CYCLES, BUDGET_NANOS, 2200, "400", "3000");
        assertThat(tally.schedules).as("acknowledged schedules").isGreaterThan(tally.cycles * 10L);
        assertThat(tally.fires).as("fires").isGreaterThan(tally.cycles);
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void killMinus9_smallSegmentsRollingAndCompacting_nothingAcknowledgedIsLostAndNoCancelledTimeoutFires()
            throws Exception {
        Tally tally = cycles("crash test, small segments", SMALL_CYCLES, SMALL_MIN_CYCLES, SMALL_BUDGET_NANOS, 1200,
                "60", "150", SMALL_SEGMENTS[0], SMALL_SEGMENTS[1]);
        System.out.printf("crash test, small segments: %d segments rolled when full, %d compactions started and %d "
                + "finished; %d kills came with a compaction running (as the child last reported, at most a few ms "
                + "before), %d left a half-written compacted segment%n", tally.rolls, tally.compactionsStarted,
                tally.compactionsFinished, tally.killsMidCompaction, tally.killsMidCopy);
        assertThat(tally.schedules).as("acknowledged schedules").isGreaterThan(tally.cycles * 10L);
        assertThat(tally.fires).as("fires").isGreaterThan(tally.cycles);
        assertThat(tally.rolls).as("segments rolled when full").isGreaterThan(tally.cycles);
        assertThat(tally.compactionsFinished).as("compactions finished").isGreaterThan(tally.cycles);
    }

    /** Runs kill cycles on one journal, checking after each; prints and returns the tallies. */
    private Tally cycles(final String name, final int planned, final int min, final long budgetNanos,
            final int maxExtraMillis, final String... childArgs) throws Exception {
        Random rnd = new Random();
        long seed = rnd.nextLong();
        List<String[]> lines = new ArrayList<>();
        List<Integer> incarnation = new ArrayList<>();
        Tally tally = new Tally();
        long start = System.nanoTime();
        while (tally.cycles < planned && (tally.cycles < min || System.nanoTime() - start < budgetNanos)) {
            runAndKill(seed + tally.cycles, 300 + rnd.nextInt(maxExtraMillis), lines, incarnation, tally, childArgs);
            check(lines, incarnation, tally, seed);
            tally.cycles++;
        }
        System.out.printf("%s: %d kill -9 cycles of %d planned in %d s (seed %d): %d schedules and %d "
                + "cancels acknowledged, %d fires, %d duplicate fires across a kill, %d keys in flight at a kill "
                + "skipped, %d cancels raced a fire already due%n", name, tally.cycles, planned,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start), seed, tally.schedules, tally.cancels,
                tally.fires, tally.duplicatesAcrossKill, tally.inFlight, tally.raced);
        return tally;
    }

    private void runAndKill(final long seed, final long runMillis, final List<String[]> lines,
            final List<Integer> incarnation, final Tally tally, final String... childArgs) throws Exception {
        int cycle = tally.cycles;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // The child's stdout goes to a file, not a pipe: every write(2) the child completed is in
        // the file after SIGKILL, whereas lines still in a pipe when the process is reaped can be
        // lost on the reading side, and a lost line makes an acknowledged op look like the key's
        // last one (the journal then rightly disagrees with the checker).
        Path log = logs.resolve("cycle-" + cycle + ".out");
        List<String> command = new ArrayList<>(List.of(java, "-ea", "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(),
                dir.toString(), Long.toString(seed), "4"));
        command.addAll(List.of(childArgs));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(log.toFile()).start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(log, StandardCharsets.UTF_8).startsWith("READY\n") && System.nanoTime() < until
                && p.isAlive()) {
            Thread.sleep(20);
        }
        assertThat(Files.readString(log, StandardCharsets.UTF_8)).as("child started (cycle %d)", cycle)
                .startsWith("READY\n");
        Thread.sleep(runMillis);
        p.destroyForcibly();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        try (Stream<Path> files = Files.list(dir)) {
            // Recovery deletes it, so look before the checker opens the journal.
            tally.killsMidCopy += files.anyMatch(f -> f.toString().endsWith(".seg.tmp")) ? 1 : 0;
        }
        for (String l : completeLines(log)) {
            if (!l.equals("READY")) {
                lines.add(l.split(" "));
                incarnation.add(cycle);
            }
        }
    }

    private void check(final List<String[]> lines, final List<Integer> incarnation, final Tally tally,
            final long seed) {
        Map<String, Integer> lastAck = new HashMap<>();
        Map<String, Integer> lastBegin = new HashMap<>();
        Map<String, Long> maxFired = new HashMap<>();
        Map<String, Integer> fireIncarnation = new HashMap<>();
        Map<String, Long> cancelAckAt = new HashMap<>();
        Map<Integer, String[]> lastReport = new HashMap<>();
        tally.reset();
        for (int i = 0; i < lines.size(); i++) {
            String[] l = lines.get(i);
            switch (l[0]) {
                case "B" -> {
                    lastBegin.put(l[2], i);
                    if (l[1].equals("S")) {
                        cancelAckAt.remove(l[2]);
                    }
                }
                case "S" -> {
                    lastAck.put(l[1], i);
                    tally.schedules++;
                }
                case "C" -> {
                    lastAck.put(l[1], i);
                    tally.cancels++;
                    if (Boolean.parseBoolean(l[2])) {
                        cancelAckAt.put(l[1], Long.parseLong(l[3]));
                    }
                }
                case "F" -> {
                    tally.fires++;
                    String id = l[1] + "@" + l[2];
                    Integer before = fireIncarnation.put(id, incarnation.get(i));
                    if (before != null) {
                        assertThat(before).as("seed %d: %s fired twice in one process", seed, id)
                                .isNotEqualTo(incarnation.get(i));
                        tally.duplicatesAcrossKill++;
                    }
                    maxFired.merge(l[1], Long.parseLong(l[2]), Math::max);
                    Long cancelledAt = cancelAckAt.get(l[1]);
                    if (cancelledAt != null) {
                        long deadline = Long.parseLong(l[3]);
                        assertThat(deadline).as("seed %d: %s fired after its cancel was acknowledged at %d", seed,
                                id, cancelledAt).isLessThanOrEqualTo(cancelledAt);
                        tally.raced++;
                    }
                }
                case "K" -> lastReport.put(incarnation.get(i), l);
                default -> throw new AssertionError("unexpected line " + String.join(" ", l));
            }
        }
        for (String[] k : lastReport.values()) {
            tally.rolls += Long.parseLong(k[1]);
            tally.compactionsStarted += Long.parseLong(k[2]);
            tally.compactionsFinished += Long.parseLong(k[3]);
            tally.killsMidCompaction += Long.parseLong(k[2]) > Long.parseLong(k[3]) ? 1 : 0;
        }
        try (JournalStore store = JournalStore.open(dir)) {
            store.open(new NoSink(), Clock.systemUTC());
            for (Map.Entry<String, Integer> e : lastAck.entrySet()) {
                String key = e.getKey();
                if (lastBegin.getOrDefault(key, -1) > e.getValue()) {
                    tally.inFlight++;
                    continue;
                }
                String[] ack = lines.get(e.getValue());
                Optional<StoredTimeout> now = store.find("c", key);
                if (ack[0].equals("S")) {
                    long v = Long.parseLong(ack[2]);
                    boolean pending = now.isPresent() && now.get().version() >= v;
                    boolean fired = maxFired.getOrDefault(key, -1L) >= v;
                    assertThat(pending || fired).as(() -> String.format("seed %d: acknowledged %s v%d is neither "
                            + "pending nor fired; now %s; its history:%n%s", seed, key, v, now,
                            history(lines, incarnation, key))).isTrue();
                } else {
                    assertThat(now).as(() -> String.format("seed %d: %s pending after an acknowledged cancel; "
                            + "its history:%n%s", seed, key, history(lines, incarnation, key))).isEmpty();
                }
            }
        }
    }

    /**
     * The lines of a killed child's output file; a last line without its newline was cut by the
     * kill (its op was never acknowledged) and is left out.
     *
     * @param log the file
     * @return the complete lines
     * @throws java.io.IOException if the file cannot be read
     */
    static List<String> completeLines(final Path log) throws java.io.IOException {
        String text = Files.readString(log, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n');
        return end < 0 ? List.of() : List.of(text.substring(0, end).split("\n", -1));
    }

    /** Every line naming the key, with its incarnation: what a failure needs to be diagnosed. */
    private static String history(final List<String[]> lines, final List<Integer> incarnation, final String key) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String[] l = lines.get(i);
            if (java.util.Arrays.asList(l).contains(key)) {
                sb.append("  #").append(incarnation.get(i)).append(" line ").append(i).append(": ")
                        .append(String.join(" ", l)).append(System.lineSeparator());
            }
        }
        return sb.toString();
    }

    /** Counts over all cycles so far; {@link #check} recounts the ones derived from the lines. */
    private static final class Tally {
        int cycles;
        long schedules;
        long cancels;
        long fires;
        long duplicatesAcrossKill;
        long inFlight;
        long raced;
        long rolls;
        long compactionsStarted;
        long compactionsFinished;
        long killsMidCompaction;
        long killsMidCopy;

        void reset() {
            schedules = 0;
            cancels = 0;
            fires = 0;
            duplicatesAcrossKill = 0;
            raced = 0;
            rolls = 0;
            compactionsStarted = 0;
            compactionsFinished = 0;
            killsMidCompaction = 0;
        }
    }

    private static final class NoSink implements TimerStore.Sink {
        @Override
        public void deliver(final StoredTimeout timeout) {
            // the checker only looks things up
        }

        @Override
        public void revoke(final String type, final String key, final long version) {
            // nothing is held
        }
    }
}
