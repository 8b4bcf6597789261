package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The hand-off's lanes, one thread at a time: which lane a thread gets, that the worker's side
 * reads every lane, and how the worker's wake-up marks are split among the lanes in use. The
 * races between lanes are jcstress's ({@code LaneHandOff}) and the stress test's (four producer
 * threads, four lanes, each timeout ending exactly once).
 */
class HandOffLanesTest {

    private static final long FAR = TimeUnit.HOURS.toNanos(1);

    private static TimeoutNode node(final long deadline) {
        return new TimeoutNode(null, timeout -> { }, deadline);
    }

    @Test
    void threadsCreatedOneAfterAnother_getDifferentLanes_andAThreadAlwaysTheSame() {
        NodeLanes lanes = new NodeLanes(4);
        // Ids are handed out in creation order; another test's thread made meanwhile can take one
        // of them, so retry until four threads made in a row have consecutive ids.
        for (int attempt = 0; attempt < 100; attempt++) {
            Thread[] made = {new Thread(() -> { }), new Thread(() -> { }), new Thread(() -> { }),
                new Thread(() -> { })};
            if (made[3].getId() - made[0].getId() != 3) {
                continue;
            }
            Set<Integer> seen = new HashSet<>();
            for (Thread thread : made) {
                int lane = lanes.laneOf(thread);
                assertThat(lanes.laneOf(thread)).isEqualTo(lane);
                seen.add(lane);
            }
            assertThat(seen).as("four threads made in a row").hasSize(4);
            return;
        }
        throw new AssertionError("no four threads in a row got consecutive ids in 100 attempts");
    }

    @Test
    void laneCount_isAPowerOfTwoFrom4To16_andAnyOtherCountIsRefused() {
        int count = NodeLanes.defaultCount();
        assertThat(Integer.bitCount(count)).isEqualTo(1);
        assertThat(count).isBetween(4, 16);
        assertThatThrownBy(() -> new NodeLanes(3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("power of two");
        assertThatThrownBy(() -> new NodeLanes(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withAPendingLimit_thereIsOneLane_soTheLimitHoldsAcrossThreads() throws Exception {
        HandOff limited = new HandOff(2);
        assertThat(limited.laneOfCaller()).isZero();
        int[] laneOfOther = new int[1];
        Thread other = new Thread(() -> laneOfOther[0] = limited.laneOfCaller());
        other.start();
        other.join();
        assertThat(laneOfOther[0]).isZero();
        limited.offer(0, node(FAR));
        limited.offer(0, node(FAR));
        assertThatThrownBy(() -> limited.offer(0, node(FAR)))
                .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
        assertThat(limited.rejectedByLimit()).isEqualTo(1);
    }

    @Test
    void theWorkerSide_readsEveryLane_countsSumThem_andPollTakesEachNodeOnce() {
        HandOff handOff = new HandOff(0, 4);
        List<TimeoutNode> offered = new ArrayList<>();
        for (int lane = 0; lane < 4; lane++) {
            for (int i = 0; i <= lane; i++) {
                TimeoutNode node = node(FAR + lane);
                offered.add(node);
                handOff.offer(lane, node);
            }
        }
        assertThat(handOff.scheduledCount()).isEqualTo(10);
        assertThat(handOff.backlog()).isEqualTo(10);
        assertThat(handOff.pending()).isEqualTo(10);
        Set<TimeoutNode> taken = new HashSet<>();
        TimeoutNode node;
        while ((node = handOff.poll()) != null) {
            assertThat(taken.add(node)).as("taken once").isTrue();
        }
        assertThat(taken).containsExactlyInAnyOrderElementsOf(offered);
        assertThat(handOff.backlog()).isZero();
    }

    @Test
    void transfer_takesEveryLane_andANodeDueFromAnyLaneLowersTheSharedBound() {
        HandOff handOff = new HandOff(0, 4);
        TimingWheel wheel = new HashedWheel(0, 1_000_000, 8);
        long index = handOff.offer(3, node(FAR));
        assertThat(handOff.wakeAfterOffer(3, index, FAR)).as("the worker is awake").isFalse();
        assertThat(handOff.transferDue(0)).isFalse();
        index = handOff.offer(1, node(5_000_000));
        handOff.wakeAfterOffer(1, index, 5_000_000);
        assertThat(handOff.transferDue(4_999_999)).isFalse();
        assertThat(handOff.transferDue(5_000_000)).as("lane 1's node is due").isTrue();
        assertThat(handOff.transferTo(wheel, due -> { })).isZero();
        assertThat(wheel.size()).isEqualTo(2);
        assertThat(handOff.parking(FAR * 2)).as("nothing queued").isEqualTo(HandOff.NONE);
    }

    @Test
    void lookAgainMark_isTheBatchForOneBusyLane_andSplitWhenTwoAreBusy() {
        HandOff handOff = new HandOff(0, 4);
        handOff.offer(1, node(FAR));
        assertThat(handOff.lookAgainLater()).isTrue();
        assertThat(offersUntilWake(handOff, 1)).as("one busy lane").isEqualTo(HandOff.TRANSFER_BATCH);

        handOff.offer(2, node(FAR));
        assertThat(handOff.lookAgainLater()).isTrue();
        long half = HandOff.TRANSFER_BATCH / 2;
        assertThat(offersUntilWake(handOff, 1)).as("lanes 1 and 2 busy: each gets half").isEqualTo(half);
        assertThat(offersUntilWake(handOff, 2)).isEqualTo(half);
    }

    /** Offers far nodes into {@code lane} until one must wake the worker; returns how many. */
    private static long offersUntilWake(final HandOff handOff, final int lane) {
        for (long n = 1; n <= 2 * HandOff.TRANSFER_BATCH; n++) {
            long index = handOff.offer(lane, node(FAR));
            if (handOff.wakeAfterOffer(lane, index, FAR)) {
                return n;
            }
        }
        return -1;
    }

    @Test
    void purgeMark_splitsWhatIsLeftAmongTheLanesThatCancelled() throws Exception {
        HandOff handOff = new HandOff(0, 4);
        NodeLanes sameMask = new NodeLanes(4);
        CountDownLatch marked = new CountDownLatch(1);
        int[] wokeAt = new int[2];
        List<Thread> cancellers = new ArrayList<>();
        Set<Integer> lanes = new HashSet<>();
        while (cancellers.size() < 2) {
            int slot = cancellers.size();
            Thread canceller = new Thread(() -> {
                handOff.cancelled(handOff.laneOfCaller());
                awaitQuietly(marked);
                for (int i = 1; i <= 100 && wokeAt[slot] == 0; i++) {
                    if (handOff.cancelled(handOff.laneOfCaller())) {
                        wokeAt[slot] = i;
                    }
                }
            });
            if (lanes.add(sameMask.laneOf(canceller))) { // two lanes, whatever other threads exist
                cancellers.add(canceller);
            }
        }
        cancellers.forEach(Thread::start);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (handOff.cancelledCount() < 2 && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        assertThat(handOff.cancelledCount()).isEqualTo(2);
        // 100 more cancels make a purge worth it: two lanes cancelled, so 50 each.
        handOff.purgeAt(102);
        assertThat(handOff.transferDue(0)).isFalse();
        marked.countDown();
        for (Thread canceller : cancellers) {
            canceller.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertThat(wokeAt).as("each canceller wakes the worker at its lane's share").containsExactly(50, 50);
        assertThat(handOff.transferDue(0)).isTrue();
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
