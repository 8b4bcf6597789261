package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Waiting in spells: every spell bounded, the whole wait as long as asked, no overflow at the limits. */
class SpellWaitTest {

    /** Sleeps what it is asked (so time passes as in a real wait), then throws until {@code readyAt}. */
    private static final class Waits implements SpellWait.TimedGet<String> {
        final List<Long> asked = new ArrayList<>();
        private final int readyAt;

        Waits(final int readyAt) {
            this.readyAt = readyAt;
        }

        @Override
        public String get(final long nanos) throws InterruptedException, TimeoutException {
            asked.add(nanos);
            if (asked.size() == readyAt) {
                return "done";
            }
            TimeUnit.NANOSECONDS.sleep(Math.max(0, nanos));
            throw new TimeoutException();
        }
    }

    @Test
    void untimed_waitsSpellAfterSpellUntilDone() throws Exception {
        Waits waits = new Waits(4);
        assertThat(SpellWait.untimed(waits)).isEqualTo("done");
        assertThat(waits.asked).containsExactly(SpellWait.NANOS, SpellWait.NANOS, SpellWait.NANOS, SpellWait.NANOS);
    }

    @Test
    void timed_longerThanASpell_waitsAllOfItInSpellsThenTimesOut() {
        Waits waits = new Waits(Integer.MAX_VALUE);
        long wanted = SpellWait.NANOS * 5 / 2;
        long start = System.nanoTime();
        assertThatThrownBy(() -> SpellWait.timed(waits, wanted)).isInstanceOf(TimeoutException.class);
        long took = System.nanoTime() - start;
        assertThat(took).as("waited all it was asked").isGreaterThanOrEqualTo(wanted)
                .as("and not far past it").isLessThan(wanted + TimeUnit.SECONDS.toNanos(5));
        assertThat(waits.asked).as("no spell longer than a spell").allMatch(n -> n > 0 && n <= SpellWait.NANOS)
                .hasSizeGreaterThanOrEqualTo(3);
    }

    @Test
    void timed_atTheLimits_looksOnceOrWaitsWithoutOverflow() throws Exception {
        Waits once = new Waits(Integer.MAX_VALUE);
        assertThatThrownBy(() -> SpellWait.timed(once, 0)).isInstanceOf(TimeoutException.class);
        assertThatThrownBy(() -> SpellWait.timed(once, Long.MIN_VALUE)).isInstanceOf(TimeoutException.class);
        assertThat(once.asked).containsExactly(0L, Long.MIN_VALUE);

        Waits forever = new Waits(2);
        assertThat(SpellWait.timed(forever, Long.MAX_VALUE)).isEqualTo("done");
        assertThat(forever.asked).containsExactly(SpellWait.NANOS, SpellWait.NANOS);
    }
}
