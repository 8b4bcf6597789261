package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.TimerTask;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The bounds the hand-off's lanes must keep when lanes turn busy after the worker split its marks,
 * and a cancel counted with a pending limit whatever the cancelling thread's getId() does. Each
 * failed on the first version of the lanes, which gave every lane the busy lanes' share.
 */
class HandOffLaneBoundsTest {

    private static final long FAR = TimeUnit.HOURS.toNanos(1);
    private static final long BATCH = HandOff.TRANSFER_BATCH;

    private static TimeoutNode node(final long deadline) {
        return new TimeoutNode(null, timeout -> { }, deadline);
    }

    /**
     * HandOff's class comment: the backlog grows by about TRANSFER_BATCH between the worker's looks
     * however many lanes are busy. Lanes that were idle at the look get an even split of the batch,
     * so four lanes that turn busy after a look that saw one wake the worker within 2 x BATCH offers
     * (giving them the busy lane's whole batch let 4 x BATCH pass, and the worker slept to a transfer
     * start 26 ms too late for that backlog; with 16 lanes 100 ms).
     */
    @Test
    void lookAgain_lanesThatTurnBusyAfterTheSplit_wakeTheWorkerWithinTwoBatches() {
        HandOff handOff = new HandOff(0, 4);
        long due = TimeUnit.SECONDS.toNanos(10);
        long index = handOff.offer(0, node(due));
        assertThat(handOff.wakeAfterOffer(0, index, due)).isFalse(); // worker awake
        // The worker's park: one node queued, so it sleeps to that node's transfer start.
        long parkUntil = handOff.parking(Long.MAX_VALUE);
        assertThat(parkUntil).isEqualTo(due);
        assertThat(handOff.transferDue(0)).isFalse();
        assertThat(handOff.lookAgainLater()).isTrue();

        long offers = 0;
        boolean woke = false;
        while (!woke && offers < 8 * BATCH) {
            int lane = (int) (offers & 3); // four producer threads, one per lane
            long i = handOff.offer(lane, node(due + FAR));
            woke = handOff.wakeAfterOffer(lane, i, due + FAR);
            offers++;
        }
        long neededStart = HandOff.transferStart(due, handOff.backlog());
        assertThat(offers).as("offers before the worker is told to look again (worker sleeps to %d, "
                + "backlog now needs transfer start %d)", parkUntil, neededStart)
                .isLessThanOrEqualTo(2 * BATCH);
    }

    /**
     * Worker.purgeIfWorthIt: garbage stays within max(live, PURGE_MIN) plus what is queued, because
     * cancellers wake the worker once "wanted" more cancels came. After a split that saw one lane
     * cancel, the idle lanes get an even split of "wanted", so lanes that start cancelling wake the
     * worker (giving each the whole of "wanted" let 4 lanes cancel 4 x wanted with no wake).
     */
    @Test
    void purgeMark_lanesThatStartCancellingAfterTheSplit_wakeTheWorker() throws Exception {
        HandOff handOff = new HandOff(0, 4);
        List<Thread> oneThreadPerLane = threadsInDistinctLanes(4, handOff, 99);
        // One lane cancelled before the worker's split: busy = 1, so every lane's share is 100.
        Thread first = oneThreadPerLane.get(0);
        Thread early = sameLaneAs(first, handOff, 1);
        early.start();
        early.join();
        handOff.purgeAt(handOff.cancelledCount() + 100);
        for (Thread thread : oneThreadPerLane) {
            thread.start();
            thread.join();
        }
        long sinceSplit = handOff.cancelledCount() - 1;
        assertThat(woken).as("a wake-up among %d cancels after a split that wanted 100", sinceSplit).isTrue();
    }

    private volatile boolean woken;

    private List<Thread> threadsInDistinctLanes(final int count, final HandOff handOff, final int cancels) {
        NodeLanes sameMask = new NodeLanes(4);
        Set<Integer> lanes = new HashSet<>();
        List<Thread> threads = new ArrayList<>();
        while (threads.size() < count) {
            Thread thread = canceller(handOff, cancels);
            if (lanes.add(sameMask.laneOf(thread))) {
                threads.add(thread);
            }
        }
        return threads;
    }

    private Thread sameLaneAs(final Thread other, final HandOff handOff, final int cancels) {
        NodeLanes sameMask = new NodeLanes(4);
        while (true) {
            Thread thread = canceller(handOff, cancels);
            if (sameMask.laneOf(thread) == sameMask.laneOf(other)) {
                return thread;
            }
        }
    }

    private Thread canceller(final HandOff handOff, final int cancels) {
        return new Thread(() -> {
            for (int i = 0; i < cancels; i++) {
                if (handOff.cancelled(handOff.laneOfCaller())) {
                    woken = true;
                }
            }
        });
    }

    /** A thread whose getId() (not final in JDK 17) throws once armed. */
    private static final class HostileThread extends Thread {
        volatile boolean armed;

        HostileThread(final Runnable body) {
            super(body);
        }

        @SuppressWarnings("deprecation")
        @Override
        public long getId() {
            if (armed) {
                throw new IllegalStateException("getId");
            }
            return super.getId();
        }
    }

    /**
     * Thread.getId() is overridable in JDK 17, and the cancel path picks its lane after the cancel
     * CAS: with a pending limit there is one lane and getId() is not called, so a getId() that
     * throws cannot leave the cancel uncounted (pendingTimeouts() stuck at 1, a limit of 1 refusing
     * every later schedule).
     */
    @Test
    void withALimit_cancelOnAThreadWhoseGetIdThrows_isCountedAndFreesItsSlot() throws Exception {
        TimerCore core = new TimerCore(new TimerOptions(TimerOptions.Kind.HASHED, "HashedWheelTimer")
                .tickNanos(TimeUnit.MILLISECONDS.toNanos(1)).wheelSize(8).maxPendingTimeouts(1)
                .threadFactory(r -> {
                    Thread thread = new Thread(r, "attack-worker");
                    thread.setDaemon(true);
                    return thread;
                }));
        try {
            TimerTask task = timeout -> { };
            TimeoutOwner owner = core.bind(null);
            TimeoutNode timeout = core.schedule(owner, task, FAR);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            HostileThread[] self = new HostileThread[1];
            self[0] = new HostileThread(() -> {
                self[0].armed = true;
                try {
                    timeout.cancel();
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            self[0].start();
            self[0].join();
            assertThat(timeout.isCancelled()).isTrue();
            boolean refused = false;
            try {
                core.schedule(owner, task, FAR);
            } catch (RejectedExecutionException e) {
                refused = true;
            }
            assertThat(refused).as("refused with nothing pending (cancel threw %s; pending %d)",
                    thrown.get(), core.pendingTimeouts()).isFalse();
        } finally {
            core.stop();
        }
    }
}
