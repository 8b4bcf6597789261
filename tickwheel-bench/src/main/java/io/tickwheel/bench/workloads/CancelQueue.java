package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.BenchTimer;

/**
 * Timeouts to cancel at planned times, in the order they were added (every entry has the same
 * lag, so the order of due times is the order of arrival): the responses of {@code rpc}, the
 * payments of {@code order-close}.
 *
 * <p>Threading: not thread-safe; confined to the producer thread.
 */
final class CancelQueue {

    private Object[] handles = new Object[1024];
    private long[] due = new long[1024];
    private int head;
    private int tail;

    /** Adds a timeout to cancel at {@code dueNanos}. */
    void add(final Object handle, final long dueNanos) {
        if (tail - head == handles.length) {
            grow();
        }
        int slot = tail & (handles.length - 1);
        handles[slot] = handle;
        due[slot] = dueNanos;
        tail++;
    }

    /** Cancels every timeout due by {@code nowNanos}; returns how many. */
    int cancelDue(final BenchTimer timer, final long nowNanos) {
        int count = 0;
        while (head != tail) {
            int slot = head & (handles.length - 1);
            if (due[slot] > nowNanos) {
                break;
            }
            timer.cancel(handles[slot]);
            handles[slot] = null;
            head++;
            count++;
        }
        return count;
    }

    private void grow() {
        int size = handles.length;
        Object[] h = new Object[size * 2];
        long[] d = new long[size * 2];
        for (int i = 0; i < size; i++) {
            h[i] = handles[(head + i) & (size - 1)];
            d[i] = due[(head + i) & (size - 1)];
        }
        handles = h;
        due = d;
        tail = size;
        head = 0;
    }
}
