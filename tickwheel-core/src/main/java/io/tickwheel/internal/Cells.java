package io.tickwheel.internal;

/**
 * The shared counters of one timer: indexes of the {@link PaddedLongs} cells that callers and
 * the worker exchange, and their sentinel values. Each cell says who writes it, who reads it, and
 * with which access mode; the handshakes they take part in are described on {@link Worker}
 * (waking) and {@link TimerCore} (counting).
 *
 * <p>Threading: immutable (constants only).
 */
final class Cells {

    /** Cell: cancels by cancel() and lost races; any thread, atomic add. */
    static final int CANCELLED = 0;
    /** Cell: timeouts the worker expired or cancelled on stop; worker release, readers acquire. */
    static final int RETIRED = 1;
    /** Cell: elapsed park deadline, AWAKE while not parked; worker volatile, producers volatile. */
    static final int PARK_DEADLINE = 2;
    /**
     * Cell: the producer index whose offer wakes the worker; worker volatile store, producers
     * volatile load (a store-load handshake with the worker's re-check before parking).
     */
    static final int TRANSFER_AT = 3;
    /** Cell: the cancel count whose cancel wakes the worker; worker volatile store, cancellers volatile load. */
    static final int PURGE_AT = 4;
    /**
     * Cell: at most the earliest elapsed deadline of the nodes still in the hand-off queue, NONE
     * when it was emptied; producers lower it by CAS, the worker resets it (volatile) before it
     * empties the queue.
     */
    static final int QUEUED_MIN = 5;
    /** QUEUED_MIN when nothing is queued. */
    static final long NONE = Long.MAX_VALUE;
    /** PARK_DEADLINE while the worker is not parked. */
    static final long AWAKE = Long.MIN_VALUE;

    /** How many cells there are. */
    static final int COUNT = 6;

    private Cells() {
    }
}
