package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random walks of schedule, cancel, purge and advance steps, comparing each wheel with a
 * {@link PriorityQueue} reference after every step, and checking the wheel's invariants. The seed
 * and step are in every failure message; re-run one with {@code -Dtickwheel.seed=N}.
 */
class TimingWheelModelTest {

    private static final int STEPS = Integer.getInteger("tickwheel.modelSteps", 100_000);
    /** Keeps checkInvariants() (a full walk) affordable after every step. */
    private static final int MAX_LIVE = 300;

    static Stream<Arguments> walks() {
        long fixed = Long.getLong("tickwheel.seed", 0L);
        List<Arguments> walks = new ArrayList<>();
        long seed = fixed != 0 ? fixed : 0x5eed_0001L;
        long[] origins = WheelConfig.ORIGINS;
        for (int i = 0; i < origins.length; i++) {
            walks.add(Arguments.of(WheelConfig.hashed(1 << (i * 3 % 10), 1_000_000L, origins[i]), seed + i));
            walks.add(Arguments.of(WheelConfig.hierarchical(1 + i * 5 % 6, 1_000_000L, origins[i]), seed + 10 + i));
        }
        walks.add(Arguments.of(WheelConfig.hierarchical(6, 1L, 0L), seed + 20));
        walks.add(Arguments.of(WheelConfig.hashed(8, 3L, Long.MAX_VALUE - 100), seed + 21));
        return walks.stream();
    }

    /** A reference entry: the node and the tick it is due at. */
    private static final class Entry {
        final TimeoutNode node;
        final long tick;

        Entry(final TimeoutNode node, final long tick) {
            this.node = node;
            this.tick = tick;
        }
    }

    @ParameterizedTest(name = "{0} seed={1}")
    @MethodSource("walks")
    void randomWalk_matchesPriorityQueueReference(final WheelConfig config, final long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        TimingWheel wheel = config.newWheel();
        PriorityQueue<Entry> reference = new PriorityQueue<>(Comparator.comparingLong((Entry e) -> e.tick));
        List<TimeoutNode> live = new ArrayList<>();
        Set<TimeoutNode> fired = new HashSet<>();
        long now = config.originNanos;
        IdentityHashMap<TimeoutNode, Long> dueTicks = new IdentityHashMap<>();
        for (int step = 0; step < STEPS; step++) {
            int at = step;
            Supplier<String> where = () -> config + " seed=" + seed + " step=" + at;
            int op = random.nextInt(100);
            if (op < 45 && live.size() < MAX_LIVE) {
                long delay = randomDelay(random, config.tickNanos);
                long elapsed = Ticks.elapsedDeadline(now - config.originNanos, delay);
                TimeoutNode node = new TimeoutNode(null, t -> { }, config.originNanos + elapsed);
                wheel.add(node);
                live.add(node);
                long tick = Math.max(wheel.deadlineTick(node), wheel.currentTick() + 1);
                reference.add(new Entry(node, tick));
                dueTicks.put(node, tick);
            } else if (op < 60 && !live.isEmpty()) {
                TimeoutNode victim = live.set(random.nextInt(live.size()), live.get(live.size() - 1));
                live.remove(live.size() - 1);
                check(victim.tryCancelQuietly(), "cancel of a live node failed", where);
            } else if (op < 62) {
                wheel.purgeCancelled();
            } else {
                long step2 = random.nextInt(4) == 0 ? wheel.nanosUntilNextTick(now) : randomAdvance(random, config);
                long advance = step2 == TimingWheel.NEVER ? config.tickNanos : step2;
                long target = now + advance;
                long targetTick = (target - config.originNanos) / config.tickNanos;
                // Everything the reference says is due by then, minus what was cancelled.
                Set<TimeoutNode> expected = new HashSet<>();
                while (!reference.isEmpty() && reference.peek().tick <= targetTick) {
                    Entry due = reference.poll();
                    if (!due.node.isCancelled()) {
                        expected.add(due.node);
                    }
                }
                Set<TimeoutNode> got = new HashSet<>();
                // Tick order is promised across the whole jump by the hierarchical wheel, and by
                // the hashed wheel within one lap (a longer jump visits each bucket once).
                boolean ordered = config.kind.equals("hierarchical")
                        || targetTick - wheel.currentTick() <= config.size;
                long[] previousTick = {Long.MIN_VALUE};
                long nowAfter = target;
                wheel.advance(target, node -> {
                    check(node.deadlineNanos - nowAfter <= 0, "early fire", where);
                    long tick = dueTicks.get(node);
                    check(!ordered || tick >= previousTick[0], "out of tick order", where);
                    previousTick[0] = tick;
                    check(got.add(node) && fired.add(node), "fired twice", where);
                });
                if (!got.equals(expected)) {
                    assertThat(got).as(where.get()).isEqualTo(expected);
                }
                live.removeIf(got::contains);
                now = target;
            }
            wheel.checkInvariants();
            if (step % 97 == 0) {
                long earliest = reference.stream().filter(e -> !e.node.isCancelled())
                        .mapToLong(e -> e.tick).min().orElse(Long.MAX_VALUE);
                if (earliest <= Long.MAX_VALUE / config.tickNanos) {
                    long until = earliest * config.tickNanos - (now - config.originNanos);
                    check(wheel.nanosUntilNextTick(now) <= Math.max(0, until), "sleeps past a due node", where);
                }
            }
        }
        wheel.purgeCancelled();
        wheel.checkInvariants();
        assertThat(wheel.size()).as("linked after purge, seed=" + seed).isEqualTo(live.size());
        List<TimeoutNode> drained = new ArrayList<>();
        wheel.drainTo(drained::add);
        assertThat(drained).containsExactlyInAnyOrderElementsOf(live);
    }

    private static void check(final boolean condition, final String what, final Supplier<String> where) {
        if (!condition) {
            throw new AssertionError(what + ", " + where.get());
        }
    }

    private static long randomDelay(final SplittableRandom random, final long tickNanos) {
        return switch (random.nextInt(10)) {
            case 0 -> random.nextLong(-1_000, 1);
            case 1 -> Long.MAX_VALUE - random.nextLong(1_000);
            case 2 -> random.nextLong(1, 1L << 50);
            case 3 -> random.nextLong(1, 70) * tickNanos;
            default -> random.nextLong(1, 5_000 * tickNanos);
        };
    }

    private static long randomAdvance(final SplittableRandom random, final WheelConfig config) {
        return switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> random.nextLong(1, 100_000 * config.tickNanos);
            case 2 -> config.tickNanos;
            default -> random.nextLong(1, 20 * config.tickNanos);
        };
    }
}
