package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.Timeout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A timeout already due when the worker takes it off a backlog fires after the nodes queued ahead
 * of it were placed: its lateness must include that wait, and its task time must not; and a task
 * the transfer expires is not charged with the placements after it, even once tiny tasks are timed
 * in groups.
 */
class WorkerTransferTimingTest {

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long ORIGIN = 1L << 40;
    /** What placing one queued node costs here: the upper end of HandOff's estimate. */
    private static final long PLACE_NANOS = 1_000;
    private static final int AHEAD = 1_000;

    /** A clock that only the wheel's placements move. */
    private static final class PlacementClock implements Clock {
        long now = ORIGIN;

        @Override
        public long nanoTime() {
            return now;
        }
    }

    /** A wheel whose every placement takes {@link #PLACE_NANOS} on the clock; nothing it holds comes due. */
    private static final class SlowPlacingWheel extends TimingWheel {
        private final PlacementClock clock;
        private final List<TimeoutNode> held = new ArrayList<>();

        SlowPlacingWheel(final PlacementClock clock) {
            super(ORIGIN, TICK);
            this.clock = clock;
        }

        @Override
        void place(final TimeoutNode node, final long tick) {
            clock.now += PLACE_NANOS;
            held.add(node);
        }

        @Override
        public void advance(final long nowNanos, final Consumer<TimeoutNode> sink) {
            // The test's nodes are due in an hour.
        }

        @Override
        public long purgeCancelled() {
            return 0;
        }

        @Override
        public long nanosUntilNextTick(final long nowNanos) {
            return NEVER;
        }

        @Override
        public void drainTo(final Consumer<TimeoutNode> sink) {
            held.forEach(sink);
            held.clear();
        }

        @Override
        public void checkInvariants() {
            // nothing to check
        }
    }

    /** Runs one pass of the loop, then stops. */
    private static final class OnePass implements WorkerControl {
        private int asked;

        @Override
        public boolean isStarted() {
            return asked++ == 0;
        }

        @Override
        public boolean forceStop() {
            return false;
        }

        @Override
        public void reportFailedDrain(final Set<Timeout> drained) {
            // the pass does not fail
        }

        @Override
        public void terminated() {
            // nothing waits
        }
    }

    @Test
    void aDueTimeoutBehindABacklog_isDatedAndTimedAfterTheNodesAheadOfIt() {
        PlacementClock clock = new PlacementClock();
        long slow = AHEAD * PLACE_NANOS / 2;
        TimerOptions options = new TimerOptions(TimerOptions.Kind.HASHED, "WorkerTransferTimingTest")
                .clock(clock).slowTaskNanos(slow);
        StatsRecorder stats = new StatsRecorder("T", options.logger(), slow, false);
        HandOff handOff = new HandOff(0);
        int lane = handOff.laneOfCaller();
        for (int i = 0; i < AHEAD; i++) {
            handOff.offer(lane, new TimeoutNode(null, t -> { }, ORIGIN + TimeUnit.HOURS.toNanos(1)));
        }
        long index = handOff.offer(lane, new TimeoutNode(null, t -> { }, ORIGIN));
        handOff.wakeAfterOffer(lane, index, 0);
        Worker worker = new Worker(new OnePass(), handOff, new SlowPlacingWheel(clock), options, ORIGIN, stats);

        Logger jul = Logger.getLogger("io.tickwheel.WorkerTransferTimingTest");
        jul.setUseParentHandlers(false); // a false slow-task WARNING stays off the console
        try {
            assertThat(worker.runIfFirst()).isTrue();
        } finally {
            jul.setUseParentHandlers(true);
        }

        StatsSnapshot snapshot = stats.snapshot(() -> 0, () -> 0, 0);
        assertThat(snapshot.get(StatsSnapshot.Counter.EXPIRED)).isEqualTo(1);
        assertThat(snapshot.lateness().max()).as("it fired after %d placements", AHEAD)
                .isGreaterThanOrEqualTo(AHEAD * PLACE_NANOS);
        assertThat(snapshot.get(StatsSnapshot.Counter.SLOW_TASKS)).as("an empty task is not slow").isZero();
        assertThat(snapshot.taskTime().max()).as("an empty task on a clock only placements move").isZero();
    }

    @Test
    void aTaskTheTransferExpires_onceTasksAreGrouped_isNotChargedWithThePlacementsAfterIt() {
        PlacementClock clock = new PlacementClock();
        long slow = AHEAD * PLACE_NANOS / 2;
        TimerOptions options = new TimerOptions(TimerOptions.Kind.HASHED, "WorkerTransferTimingTest")
                .clock(clock).slowTaskNanos(slow);
        StatsRecorder stats = new StatsRecorder("T", options.logger(), slow, false);
        HandOff handOff = new HandOff(0);
        int lane = handOff.laneOfCaller();
        int dueFirst = InlineTiming.SOLO_RUN + 2; // the last two of them come after grouping started
        for (int i = 0; i < dueFirst; i++) {
            handOff.offer(lane, new TimeoutNode(null, t -> { }, ORIGIN));
        }
        for (int i = 0; i < AHEAD; i++) {
            handOff.offer(lane, new TimeoutNode(null, t -> { }, ORIGIN + TimeUnit.HOURS.toNanos(1)));
        }
        long index = handOff.offer(lane, new TimeoutNode(null, t -> { }, ORIGIN));
        handOff.wakeAfterOffer(lane, index, 0);
        Worker worker = new Worker(new OnePass(), handOff, new SlowPlacingWheel(clock), options, ORIGIN, stats);

        Logger jul = Logger.getLogger("io.tickwheel.WorkerTransferTimingTest");
        jul.setUseParentHandlers(false);
        try {
            assertThat(worker.runIfFirst()).isTrue();
        } finally {
            jul.setUseParentHandlers(true);
        }

        StatsSnapshot snapshot = stats.snapshot(() -> 0, () -> 0, 0);
        assertThat(snapshot.get(StatsSnapshot.Counter.EXPIRED)).isEqualTo(dueFirst + 1L);
        assertThat(snapshot.taskTime().count()).isEqualTo(dueFirst + 1L);
        assertThat(snapshot.get(StatsSnapshot.Counter.SLOW_TASKS))
                .as("%d placements after a grouped task are not its time", AHEAD).isZero();
        assertThat(snapshot.taskTime().max()).as("empty tasks on a clock only placements move").isZero();
        assertThat(snapshot.lateness().max()).as("the last fired after the placements")
                .isGreaterThanOrEqualTo(AHEAD * PLACE_NANOS);
    }
}
