package io.tickwheel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * compareTo's tie-breaks: equal due times are ordered by the registry's sequence (schedule order
 * for one thread's tasks), and tasks of two executors with equal times and sequences by their
 * executors, so the order stays total and antisymmetric.
 */
class ScheduledTaskOrderTest {

    private static final Callable<Object> BODY = () -> null;

    private static ScheduledTask<Object> task(final ScheduledTask.Host host, final long time, final long sequence) {
        ScheduledTask<Object> task = new ScheduledTask<>(host, BODY, time, 0);
        task.sequence = sequence;
        return task;
    }

    @Test
    void equalTimes_oneExecutor_orderedBySequence() {
        OrderOnlyHost host = new OrderOnlyHost(7);
        ScheduledTask<Object> earlier = task(host, 100, 1);
        ScheduledTask<Object> later = task(host, 100, 2);
        assertThat(earlier.compareTo(later)).isNegative();
        assertThat(later.compareTo(earlier)).isPositive();
    }

    @Test
    void equalTimesAndSequences_twoExecutors_orderedByExecutor_antisymmetric() {
        ScheduledTask<Object> first = task(new OrderOnlyHost(1), 100, 5);
        ScheduledTask<Object> second = task(new OrderOnlyHost(2), 100, 5);
        assertThat(first.compareTo(second)).isNegative();
        assertThat(second.compareTo(first)).isPositive();
    }

    @Test
    void differentTimes_orderedByTimeWhateverTheSequence() {
        OrderOnlyHost host = new OrderOnlyHost(3);
        ScheduledTask<Object> sooner = task(host, 100, 9);
        ScheduledTask<Object> later = task(host, 200, 1);
        assertThat(sooner.compareTo(later)).isNegative();
        assertThat(later.compareTo(sooner)).isPositive();
    }
}
