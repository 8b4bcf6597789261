package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.Timeout;
import io.tickwheel.TimerTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An Error on a scheduling thread at the one point of the hand-off where the queue may allocate
 * (the next chunk), injected deterministically through the queue's test hook: the offer throws
 * having claimed nothing, so the worker never waits for a slot that will not be filled, the
 * pending count stays exact and the pending limit lets in exactly as many more as it should.
 */
class NodeQueueErrorTest {

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(1);
    private static final TimerTask TASK = timeout -> { };

    @Test
    void offer_errorBeforeNewChunk_claimsNothingAndConsumerNeverWaits() {
        NodeQueue queue = new NodeQueue(2);
        List<TimeoutNode> offered = new ArrayList<>();
        AtomicInteger failures = new AtomicInteger();
        queue.beforeNewChunk = () -> {
            if (failures.getAndIncrement() % 2 == 0) {
                throw new OutOfMemoryError("injected: allocating the next chunk");
            }
        };
        for (int i = 0; i < 40; i++) {
            TimeoutNode node = new TimeoutNode(null, TASK, i);
            try {
                assertThat(queue.offer(node)).isEqualTo(offered.size());
                offered.add(node);
            } catch (OutOfMemoryError expected) {
                assertThat(expected).hasMessageContaining("injected");
            }
        }
        assertThat(failures.get()).as("injected failures").isGreaterThan(5);
        assertThat(queue.producedCount()).isEqualTo(offered.size());

        List<TimeoutNode> polled = new ArrayList<>();
        TimeoutNode node;
        while ((node = queue.poll()) != null) {
            polled.add(node);
        }
        assertThat(polled).containsExactlyElementsOf(offered);
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void schedule_errorInHandOff_throwsItAndCountAndPermitStayExact() throws Exception {
        TimerCore core = new TimerCore(new TimerOptions(TimerOptions.Kind.HASHED, "HashedWheelTimer")
                .tickNanos(TICK).wheelSize(8).maxPendingTimeouts(3000).threadFactory(r -> {
                    Thread thread = new Thread(r, "node-queue-error-worker");
                    thread.setDaemon(true);
                    return thread;
                }));
        AtomicInteger calls = new AtomicInteger();
        core.handOff.queue(0).beforeNewChunk = () -> {
            if (calls.incrementAndGet() % 2 == 1) { // every other new chunk: at 1024 and 2048 offers
                throw new StackOverflowError("injected: in the hand-off, before the claim");
            }
        };
        List<TimeoutNode> accepted = new ArrayList<>();
        int thrown = 0;
        for (int i = 0; i < 2_500; i++) {
            try {
                accepted.add(core.schedule(null, TASK, TimeUnit.HOURS.toNanos(1)));
            } catch (StackOverflowError expected) {
                thrown++;
            }
        }
        core.handOff.queue(0).beforeNewChunk = null;
        assertThat(thrown).as("injected failures").isPositive();
        assertThat(core.pendingTimeouts()).isEqualTo(accepted.size());

        // The failed calls took no slot of the limit: exactly 3000 - accepted more fit.
        int more = 0;
        try {
            while (more <= 3000) {
                core.schedule(null, TASK, TimeUnit.HOURS.toNanos(1));
                more++;
            }
        } catch (RejectedExecutionException expected) {
            // at the limit
        }
        assertThat(accepted.size() + more).isEqualTo(3000);

        Set<Timeout> returned = core.stop();
        assertThat(returned).hasSize(3000);
        assertThat(returned.containsAll(accepted)).as("every accepted timeout returned").isTrue();
        assertThat(core.pendingTimeouts()).isZero();
        assertThatThrownBy(() -> core.schedule(null, TASK, 1)).isInstanceOf(IllegalStateException.class);
    }
}
