package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;
import java.util.stream.LongStream;
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
    private static final class SlowPlacingWheel extends IdleWheel {
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
        void drainBuckets(final Consumer<TimeoutNode> sink) {
            held.forEach(sink);
            held.clear();
        }
    }

    /**
     * Queues the given deadlines in order and runs one pass of a worker on the slow-placing wheel,
     * with a slow-task threshold of half the backlog's placement time.
     */
    private static StatsSnapshot runOnePass(final long... deadlines) {
        PlacementClock clock = new PlacementClock();
        long slow = AHEAD * PLACE_NANOS / 2;
        TimerOptions options = new TimerOptions(TimerOptions.Kind.HASHED, "WorkerTransferTimingTest")
                .clock(clock).slowTaskNanos(slow);
        StatsRecorder stats = new StatsRecorder("T", options.logger(), slow, false);
        HandOff handOff = new HandOff(0);
        int lane = handOff.laneOfCaller();
        long index = 0;
        for (long deadline : deadlines) {
            index = handOff.offer(lane, new TimeoutNode(null, t -> { }, deadline));
        }
        handOff.wakeAfterOffer(lane, index, 0);
        Worker worker = new Worker(new PassesControl(1), handOff, new SlowPlacingWheel(clock), options, ORIGIN,
                stats);
        Logger jul = Logger.getLogger("io.tickwheel.WorkerTransferTimingTest");
        jul.setUseParentHandlers(false); // a false slow-task WARNING stays off the console
        try {
            assertThat(worker.runIfFirst()).isTrue();
        } finally {
            jul.setUseParentHandlers(true);
        }
        return stats.snapshot(() -> 0, () -> 0, 0);
    }

    /** {@code count} deadlines: due now, or in an hour. */
    private static LongStream deadlines(final int count, final boolean due) {
        return LongStream.generate(() -> due ? ORIGIN : ORIGIN + TimeUnit.HOURS.toNanos(1)).limit(count);
    }

    @Test
    void aDueTimeoutBehindABacklog_isDatedAndTimedAfterTheNodesAheadOfIt() {
        StatsSnapshot snapshot = runOnePass(LongStream.concat(deadlines(AHEAD, false), deadlines(1, true))
                .toArray());
        assertThat(snapshot.get(StatsSnapshot.Counter.EXPIRED)).isEqualTo(1);
        assertThat(snapshot.lateness().max()).as("it fired after %d placements", AHEAD)
                .isGreaterThanOrEqualTo(AHEAD * PLACE_NANOS);
        assertThat(snapshot.get(StatsSnapshot.Counter.SLOW_TASKS)).as("an empty task is not slow").isZero();
        assertThat(snapshot.taskTime().max()).as("an empty task on a clock only placements move").isZero();
    }

    @Test
    void aTaskTheTransferExpires_onceTasksAreGrouped_isNotChargedWithThePlacementsAfterIt() {
        int dueFirst = InlineTiming.SOLO_RUN + 2; // the last two of them come after grouping started
        StatsSnapshot snapshot = runOnePass(LongStream.concat(
                LongStream.concat(deadlines(dueFirst, true), deadlines(AHEAD, false)), deadlines(1, true)).toArray());
        assertThat(snapshot.get(StatsSnapshot.Counter.EXPIRED)).isEqualTo(dueFirst + 1L);
        assertThat(snapshot.taskTime().count()).isEqualTo(dueFirst + 1L);
        assertThat(snapshot.get(StatsSnapshot.Counter.SLOW_TASKS))
                .as("%d placements after a grouped task are not its time", AHEAD).isZero();
        assertThat(snapshot.taskTime().max()).as("empty tasks on a clock only placements move").isZero();
        assertThat(snapshot.lateness().max()).as("the last fired after the placements")
                .isGreaterThanOrEqualTo(AHEAD * PLACE_NANOS);
    }
}
