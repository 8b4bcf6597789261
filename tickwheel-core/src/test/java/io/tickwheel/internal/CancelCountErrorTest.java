package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;
import io.tickwheel.TimerTask;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A cancel whose count in the engine fails with an Error (a deep caller's stack overflow strikes
 * inside {@link TimeoutOwner#onCancelled}): the task still hears of its cancel and is let go, the
 * node stays cancelled, and the Error reaches the caller. Before, the Error skipped both, and no
 * later call would ever make them: a second cancel finds the node cancelled and returns false.
 */
class CancelCountErrorTest {

    /** An owner whose count overflows the first {@code failures} times it is called. */
    private static final class FailingOwner implements TimeoutOwner {
        final AtomicInteger calls = new AtomicInteger();
        final StackOverflowError overflow = new StackOverflowError("at the edge of a deep caller's stack");
        private final int failures;

        FailingOwner(final int failures) {
            this.failures = failures;
        }

        @Override
        public Timer timer() {
            throw new UnsupportedOperationException("not needed here");
        }

        @Override
        public void onCancelled(final Timeout node, final int place) {
            if (calls.incrementAndGet() <= failures) {
                throw overflow;
            }
        }

        @Override
        public System.Logger logger() {
            return System.getLogger(CancelCountErrorTest.class.getName());
        }

        @Override
        public long nanoTime() {
            return 0;
        }
    }

    /** Counts its cancelled() callbacks. */
    private static final class CountingTask implements TimerTask {
        final AtomicInteger cancelledCalls = new AtomicInteger();

        @Override
        public void run(final Timeout timeout) {
            throw new AssertionError("a cancelled timeout never runs");
        }

        @Override
        public void cancelled(final Timeout timeout) {
            cancelledCalls.incrementAndGet();
        }
    }

    @Test
    void errorInTheCount_stillTellsTheTaskAndLetsItGo_thenReachesTheCaller() {
        FailingOwner owner = new FailingOwner(1);
        CountingTask task = new CountingTask();
        TimeoutNode node = new TimeoutNode(owner, task, 0);

        assertThat(catchThrowable(node::cancel)).as("the count's own Error reaches the caller")
                .isSameAs(owner.overflow);

        assertThat(owner.calls.get()).as("the engine was asked to count it once").isEqualTo(1);
        assertThat(task.cancelledCalls.get()).as("cancelled() ran despite the Error").isEqualTo(1);
        assertThat(node.task()).as("the task was let go").isNull();
        assertThat(node.isCancelled()).isTrue();
        assertThat(node.isExpired()).isFalse();
        // A retry changes nothing: the cancel happened once, and so did its callback.
        assertThat(node.cancel()).isFalse();
        assertThat(owner.calls.get()).isEqualTo(1);
        assertThat(task.cancelledCalls.get()).isEqualTo(1);
    }

    @Test
    void withoutAnError_theCancelCountsOnceAndTellsTheTaskOnce() {
        FailingOwner owner = new FailingOwner(0);
        CountingTask task = new CountingTask();
        TimeoutNode node = new TimeoutNode(owner, task, 0);

        assertThat(node.cancel()).isTrue();
        assertThat(node.cancel()).isFalse();

        assertThat(owner.calls.get()).isEqualTo(1);
        assertThat(task.cancelledCalls.get()).isEqualTo(1);
        assertThat(node.task()).isNull();
        assertThat(node.isCancelled()).isTrue();
    }
}
