package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Timeouts that survive restarts" example, line for line (the path is a temporary
 * directory, and a test clock stands in for waiting 30 minutes): an unpaid order closes, a paid
 * one does not, and closing is idempotent.
 */
class ReadmeExampleTest {

    @TempDir
    Path dir;

    /** The shop's orders: closing an order that is paid or closed does nothing. */
    static final class Orders {
        final Map<String, String> state = new ConcurrentHashMap<>();
        final AtomicInteger closes = new AtomicInteger();

        void closeIfUnpaid(final String id) {
            if (state.replace(id, "unpaid", "closed")) {
                closes.incrementAndGet();
            }
        }
    }

    @Test
    void orderClose_unpaidClosesAfter30Minutes_paidStaysOpen() {
        Orders orders = new Orders();
        MutableClock clock = new MutableClock();
        DurableTimer timeouts = DurableTimer.builder(JournalStore.open(dir.resolve("timeouts")))
                .handler("close-unpaid-order", t -> orders.closeIfUnpaid(t.key()))  // idempotent by order id
                .clock(clock)
                .build();                 // recovers the journal; orders that fell due while down close now
        try (timeouts) {
            for (String orderId : new String[] {"o-1", "o-2"}) {
                orders.state.put(orderId, "unpaid");
                // On order creation (durable when it returns):
                timeouts.schedule("close-unpaid-order", orderId, new byte[0], Duration.ofMinutes(30));
            }
            String orderId = "o-2";
            orders.state.put(orderId, "paid");
            // On payment:
            timeouts.cancel("close-unpaid-order", orderId);

            clock.jump(Duration.ofMinutes(31));
            await().atMost(Duration.ofSeconds(10)).until(() -> "closed".equals(orders.state.get("o-1")));
            await().atMost(Duration.ofSeconds(10)).until(() -> timeouts.pendingTimeouts() == 0);
            assertThat(orders.state).containsEntry("o-2", "paid");
            orders.closeIfUnpaid("o-1");
            assertThat(orders.closes).hasValue(1);
        }
    }
}
