package io.tickwheel.durable.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link LiveSet}'s deadline buckets: bounded by the slots however often a key is renewed, and
 * {@link LiveSet#pollDue} delivering exactly what a naive model says through every rebuild.
 */
class LiveSetTest {

    private static final long BASE_MS = 1_800_000_000_000L;

    private static long h1(final int key) {
        return key * 0x9E3779B97F4A7C15L;
    }

    private static long h2(final int key) {
        return key;
    }

    @Test
    void renewingOneKeyOftenKeepsTheBucketsBoundedAndOnlyTheLatestDeadlineIsDelivered() {
        LiveSet live = new LiveSet();
        int renewals = 200_000;
        for (int i = 0; i < renewals; i++) {
            // A lease renewed every time with a deadline a second later: a new bucket per renewal.
            live.put(h1(7), h2(7), i, i, BASE_MS + 1000L * i, 40);
        }

        assertThat(live.size()).isEqualTo(1);
        assertThat(live.slots()).isEqualTo(1);
        assertThat(live.bucketEntries()).as("bucket entries for one pending key").isLessThanOrEqualTo(66);
        List<Integer> taken = new ArrayList<>();
        live.pollDue(BASE_MS + 1000L * renewals, Integer.MAX_VALUE, taken::add);
        assertThat(taken).hasSize(1);
        int slot = taken.get(0);
        assertThat(live.version(slot)).isEqualTo(renewals - 1);
        assertThat(live.deadlineMillis(slot)).isEqualTo(BASE_MS + 1000L * (renewals - 1));
        assertThat(live.bucketEntries()).isZero();
    }

    @Test
    void pollDueDeliversWhatANaiveModelSaysThroughRandomRenewalsRemovalsAndRebuilds() {
        for (long seed = 1; seed <= 20; seed++) {
            runModel(new SplittableRandom(seed), seed);
        }
    }

    private static void runModel(final SplittableRandom random, final long seed) {
        LiveSet live = new LiveSet();
        Map<Integer, Long> deadlines = new HashMap<>(); // key -> deadline, for the pending keys
        Set<Integer> delivered = new HashSet<>();
        Map<Integer, Integer> slotToKey = new HashMap<>();
        long version = 0;
        int rebuildsSeen = 0;
        for (int op = 0; op < 20_000; op++) {
            int key = random.nextInt(40);
            int choice = random.nextInt(100);
            int entriesBefore = live.bucketEntries();
            if (choice < 85) {
                long deadline = BASE_MS + random.nextLong(120_000);
                int slot = live.put(h1(key), h2(key), op, version++, deadline, 10);
                slotToKey.put(slot, key);
                deadlines.put(key, deadline);
                delivered.remove(key);
                if (live.bucketEntries() < entriesBefore) {
                    rebuildsSeen++;
                }
            } else if (choice < 92) {
                int slot = live.find(h1(key), h2(key));
                assertThat(slot >= 0).as("seed %d: found %d", seed, key).isEqualTo(deadlines.containsKey(key));
                if (slot >= 0) {
                    live.remove(slot);
                    deadlines.remove(key);
                    delivered.remove(key);
                }
            } else if (choice < 95 && !delivered.isEmpty()) {
                int back = delivered.iterator().next();
                live.undeliver(live.find(h1(back), h2(back)));
                delivered.remove(back);
            } else {
                long horizon = BASE_MS + random.nextLong(130_000);
                int cap = random.nextBoolean() ? Integer.MAX_VALUE : delivered.size() + random.nextInt(5);
                checkPoll(live, horizon, cap, deadlines, delivered, slotToKey, seed);
            }
            assertThat(live.bucketEntries()).as("seed %d", seed).isLessThanOrEqualTo(2 * live.slots() + 64);
            assertThat(live.delivered()).as("seed %d", seed).isEqualTo(delivered.size());
        }
        checkPoll(live, Long.MAX_VALUE / 2, Integer.MAX_VALUE, deadlines, delivered, slotToKey, seed);
        assertThat(delivered).as("seed %d: every pending key delivered at the end", seed)
                .isEqualTo(deadlines.keySet());
        assertThat(rebuildsSeen).as("seed %d: the run went through rebuilds", seed).isPositive();
    }

    private static void checkPoll(final LiveSet live, final long horizon, final int cap,
            final Map<Integer, Long> deadlines, final Set<Integer> delivered, final Map<Integer, Integer> slotToKey,
            final long seed) {
        Set<Integer> eligible = new HashSet<>();
        for (Map.Entry<Integer, Long> e : deadlines.entrySet()) {
            if (!delivered.contains(e.getKey()) && Math.floorDiv(e.getValue(), 1000) <= Math.floorDiv(horizon, 1000)) {
                eligible.add(e.getKey());
            }
        }
        List<Integer> taken = new ArrayList<>();
        live.pollDue(horizon, cap, slot -> taken.add(slotToKey.get(slot)));
        int room = Math.max(0, cap - delivered.size());
        assertThat(taken).as("seed %d: taken once each", seed).doesNotHaveDuplicates();
        assertThat(eligible).as("seed %d: only eligible keys are taken", seed).containsAll(taken);
        assertThat(taken).as("seed %d: as many as there is room for", seed).hasSize(Math.min(room, eligible.size()));
        long latestTaken = taken.stream().mapToLong(k -> Math.floorDiv(deadlines.get(k), 1000)).max().orElse(0);
        for (int left : eligible) {
            if (!taken.contains(left)) {
                assertThat(Math.floorDiv(deadlines.get(left), 1000)).as("seed %d: earlier buckets first", seed)
                        .isGreaterThanOrEqualTo(latestTaken);
            }
        }
        delivered.addAll(taken);
    }
}
