package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deterministic tests of both wheel structures on a manual clock: no threads, no sleeps. Every
 * test runs over every {@link WheelConfig} and checks the structure's invariants after each step.
 */
class TimingWheelTest {

    static List<WheelConfig> configs() {
        return WheelConfig.all();
    }

    /** Drives one wheel with a manual clock and records what it expires. */
    private static final class Driver {
        final WheelConfig config;
        final TimingWheel wheel;
        final List<TimeoutNode> fired = new ArrayList<>();
        long now;

        Driver(final WheelConfig config) {
            this.config = config;
            this.wheel = config.newWheel();
            this.now = config.originNanos;
        }

        TimeoutNode add(final long delayNanos) {
            long elapsed = Ticks.elapsedDeadline(now - config.originNanos, delayNanos);
            TimeoutNode node = new TimeoutNode(null, t -> { }, config.originNanos + elapsed);
            wheel.add(node);
            wheel.checkInvariants();
            return node;
        }

        void advanceBy(final long nanos) {
            now += nanos;
            wheel.advance(now, node -> {
                assertThat(node.deadlineNanos - now).as("fired early: %s", node).isLessThanOrEqualTo(0);
                assertThat(node.tryExpire()).isTrue();
                fired.add(node);
            });
            wheel.checkInvariants();
        }

        /** The start of the first tick at or after {@code deadline}, as nanos from now. */
        long untilDeadlineTick(final TimeoutNode node) {
            return wheel.deadlineTick(node) * config.tickNanos - (now - config.originNanos);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void advance_toJustBeforeDeadlineTick_doesNotFire_thenFiresAtIt(final WheelConfig config) {
        Driver driver = new Driver(config);
        for (long delay : new long[] {1, config.tickNanos, 5 * config.tickNanos + 1, 64 * config.tickNanos,
                4097 * config.tickNanos + 3}) {
            TimeoutNode node = driver.add(delay);
            long until = driver.untilDeadlineTick(node);
            driver.advanceBy(until - 1);
            assertThat(driver.fired).doesNotContain(node);
            driver.advanceBy(1);
            assertThat(driver.fired).endsWith(node);
            assertThat(driver.wheel.size()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void add_zeroOrNegativeDelay_firesOnNextTickNotBefore(final WheelConfig config) {
        Driver driver = new Driver(config);
        driver.advanceBy(3 * config.tickNanos + 1);
        TimeoutNode zero = driver.add(0);
        TimeoutNode negative = driver.add(-1_000);
        driver.advanceBy(0);
        assertThat(driver.fired).isEmpty();
        driver.advanceBy(config.tickNanos);
        assertThat(driver.fired).containsExactlyInAnyOrder(zero, negative);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void add_hugeDelay_neverFiresAndDoesNotWrap(final WheelConfig config) {
        Driver driver = new Driver(config);
        TimeoutNode node = driver.add(Long.MAX_VALUE);
        assertThat(driver.wheel.nanosUntilNextTick(driver.now)).isPositive();
        for (int i = 0; i < 40; i++) {
            driver.advanceBy(Long.MAX_VALUE / 64);
        }
        assertThat(driver.fired).isEmpty();
        assertThat(driver.wheel.size()).isOne();
        assertThat(node.isExpired()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void advance_manyDeadlines_firesInDeadlineTickOrder(final WheelConfig config) {
        Driver driver = new Driver(config);
        long[] delays = {
            9000 * config.tickNanos, 3, 64 * config.tickNanos, 63 * config.tickNanos,
            65 * config.tickNanos, 4096 * config.tickNanos, 4095 * config.tickNanos,
            2 * config.tickNanos, 262_144 * config.tickNanos + 1,
        };
        List<TimeoutNode> nodes = new ArrayList<>();
        for (long delay : delays) {
            nodes.add(driver.add(delay));
        }
        // Step one tick at a time near the start, then in big jumps: both must keep order.
        for (int i = 0; i < 70; i++) {
            driver.advanceBy(config.tickNanos);
        }
        driver.advanceBy(300_000 * config.tickNanos);
        assertThat(driver.fired).hasSameSizeAs(nodes);
        for (int i = 1; i < driver.fired.size(); i++) {
            assertThat(driver.wheel.deadlineTick(driver.fired.get(i)))
                    .isGreaterThanOrEqualTo(driver.wheel.deadlineTick(driver.fired.get(i - 1)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void nanosUntilNextTick_followedRepeatedly_reachesEveryDeadlineWithoutSkipping(final WheelConfig config) {
        Driver driver = new Driver(config);
        assertThat(driver.wheel.nanosUntilNextTick(driver.now)).isEqualTo(TimingWheel.NEVER);
        long[] delays = {5 * config.tickNanos, 70 * config.tickNanos + 2, 5000 * config.tickNanos};
        List<TimeoutNode> nodes = new ArrayList<>();
        for (long delay : delays) {
            nodes.add(driver.add(delay));
        }
        int wakeUps = 0;
        while (driver.fired.size() < nodes.size()) {
            long wait = driver.wheel.nanosUntilNextTick(driver.now);
            assertThat(wait).isNotEqualTo(TimingWheel.NEVER);
            for (TimeoutNode node : nodes) {
                if (!node.isExpired()) {
                    assertThat(wait).as("would sleep past %s", node)
                            .isLessThanOrEqualTo(driver.untilDeadlineTick(node));
                }
            }
            driver.advanceBy(wait);
            wakeUps++;
        }
        assertThat(driver.fired).containsExactlyElementsOf(nodes);
        assertThat(driver.wheel.nanosUntilNextTick(driver.now)).isEqualTo(TimingWheel.NEVER);
        // A hierarchical wheel wakes for cascades too, but at most once per level per node.
        assertThat(wakeUps).isLessThanOrEqualTo(nodes.size() * 64);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void cancelled_nodes_neverFire_andArePurged(final WheelConfig config) {
        Driver driver = new Driver(config);
        List<TimeoutNode> kept = new ArrayList<>();
        long cancelled = 0;
        for (int i = 0; i < 300; i++) {
            TimeoutNode node = driver.add((i % 37 + 1) * config.tickNanos * (i % 5 == 0 ? 100 : 1));
            if (i % 3 == 0) {
                assertThat(node.tryCancelQuietly()).isTrue();
                cancelled++;
            } else {
                kept.add(node);
            }
        }
        assertThat(driver.wheel.purgeCancelled()).isEqualTo(cancelled);
        driver.wheel.checkInvariants();
        assertThat(driver.wheel.size()).isEqualTo(kept.size());
        assertThat(driver.wheel.purgeCancelled()).isZero();
        driver.advanceBy(10_000 * config.tickNanos);
        assertThat(driver.fired).containsExactlyInAnyOrderElementsOf(kept);
        assertThat(driver.wheel.droppedCancelled()).isEqualTo(cancelled);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void advance_dropsCancelledNodesItWalksPast(final WheelConfig config) {
        Driver driver = new Driver(config);
        TimeoutNode cancelled = driver.add(3 * config.tickNanos);
        TimeoutNode live = driver.add(3 * config.tickNanos);
        cancelled.tryCancelQuietly();
        driver.advanceBy(4 * config.tickNanos);
        assertThat(driver.fired).containsExactly(live);
        assertThat(driver.wheel.droppedCancelled()).isOne();
        assertThat(driver.wheel.size()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void drainTo_returnsEveryPendingNode_andEmptiesTheWheel(final WheelConfig config) {
        Driver driver = new Driver(config);
        List<TimeoutNode> pending = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            TimeoutNode node = driver.add(i * 997L * config.tickNanos + i);
            if (i % 10 == 0) {
                node.tryCancelQuietly();
            } else {
                pending.add(node);
            }
        }
        driver.advanceBy(config.tickNanos / 2);
        pending.removeAll(driver.fired);
        List<TimeoutNode> drained = new ArrayList<>();
        driver.wheel.drainTo(drained::add);
        driver.wheel.checkInvariants();
        assertThat(drained).containsExactlyInAnyOrderElementsOf(pending);
        assertThat(driver.wheel.size()).isZero();
        assertThat(driver.wheel.nanosUntilNextTick(driver.now)).isEqualTo(TimingWheel.NEVER);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void advance_clockBeforeOrigin_doesNothing(final WheelConfig config) {
        Driver driver = new Driver(config);
        TimeoutNode node = driver.add(config.tickNanos);
        driver.advanceBy(-5 * config.tickNanos);
        assertThat(driver.fired).isEmpty();
        assertThat(driver.wheel.currentTick()).isZero();
        driver.advanceBy(6 * config.tickNanos);
        assertThat(driver.fired).containsExactly(node);
    }
}
