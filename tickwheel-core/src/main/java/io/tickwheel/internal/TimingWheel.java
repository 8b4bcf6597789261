package io.tickwheel.internal;

import java.util.function.Consumer;

/**
 * A timing wheel as a pure data structure: it holds nodes by deadline, and when told the time,
 * pushes the due ones into a sink. It never reads a clock, starts a thread or blocks, so tests
 * drive it with a manual clock and no sleeps.
 *
 * <p>Time is a tick count since {@code originNanos}: tick {@code t} starts at
 * {@code originNanos + t * tickNanos}. A node is due at its <em>deadline tick</em>, the first
 * tick starting at or after its deadline, so it never fires early; {@link #advance} to a time in
 * tick {@code t} expires every node whose deadline tick is at most {@code t}. Clock readings are
 * only ever subtracted from the origin, so origins near either end of the {@code long} range,
 * and clocks that wrap, work the same as zero.
 *
 * <p>Cancelled nodes are not removed one by one (a node does not know where in its bucket it
 * sits, which keeps it small): they are dropped whenever the wheel walks past them, and
 * {@link #purgeCancelled()} drops them all when the owner decides enough have piled up.
 *
 * <p>Threading: not thread-safe; confined by the worker thread (or the test driving it).
 */
public abstract class TimingWheel {

    /** Returned by {@link #nanosUntilNextTick} when the wheel holds nothing. */
    public static final long NEVER = Long.MAX_VALUE;

    final long originNanos;
    final long tickNanos;
    /** Makes dividing by the tick a multiply: see {@link Ticks#reciprocal}. */
    private final long reciprocal;
    /** Every tick up to and including this one has been processed; nodes are all due later. */
    long currentTick;
    /** Linked nodes, cancelled ones included until dropped. */
    private long size;
    /** Cancelled nodes this wheel has dropped, ever. */
    private long droppedCancelled;
    /**
     * A node whose add threw (an OutOfMemoryError growing its bucket leaves it unlinked), kept so
     * that {@link #drainTo} still gives it back: the worker is failing, and its final drain must
     * find every pending node.
     */
    private TimeoutNode stranded;

    TimingWheel(final long originNanos, final long tickNanos) {
        this.originNanos = originNanos;
        this.tickNanos = Checks.positive(tickNanos, "tickNanos");
        this.reciprocal = Ticks.reciprocal(tickNanos);
    }

    /**
     * Links {@code node}; a node whose deadline tick has already been processed is placed in the
     * next tick, so it fires on the next advance that reaches it.
     *
     * @param node a pending node not linked anywhere
     */
    public final void add(final TimeoutNode node) {
        placeOrStrand(node, Math.max(deadlineTick(node), currentTick + 1));
        size++;
    }

    /**
     * Links {@code node} unless its deadline tick has already been processed, in which case it
     * is due now and the caller expires it: a node taken from the hand-off queue late (a clock
     * jump, a long backlog) fires on the first tick the wheel processes after its deadline,
     * which is the one already processed, rather than one tick later.
     *
     * @param node a pending node not linked anywhere
     * @return true if linked, false if due now and left to the caller
     */
    public final boolean addUnlessDue(final TimeoutNode node) {
        long tick = deadlineTick(node);
        if (tick <= currentTick) {
            return false;
        }
        placeOrStrand(node, tick);
        size++;
        return true;
    }

    /** Places {@code node}, or keeps it for {@link #drainTo} if placing throws (see {@code stranded}). */
    private void placeOrStrand(final TimeoutNode node, final long tick) {
        try {
            place(node, tick);
        } catch (Throwable t) {
            stranded = node;
            throw t;
        }
    }

    /**
     * Processes every tick up to the one containing {@code nowNanos}: due nodes are unlinked and
     * given to {@code sink} in tick order, cancelled ones met on the way are dropped.
     *
     * @param nowNanos the current clock reading
     * @param sink receives each due node, already unlinked
     */
    public abstract void advance(long nowNanos, Consumer<TimeoutNode> sink);

    /**
     * Unlinks every cancelled node.
     *
     * @return how many were dropped
     */
    public abstract long purgeCancelled();

    /**
     * Returns how long from {@code nowNanos} until the start of the next tick with work in it
     * (a due bucket, or for a hierarchical wheel a cascade), 0 if that is now or past, or
     * {@link #NEVER} if the wheel is empty.
     *
     * @param nowNanos the current clock reading
     * @return nanoseconds to wait
     */
    public abstract long nanosUntilNextTick(long nowNanos);

    /**
     * Unlinks every node, giving the ones not cancelled to {@code sink}; a node whose add threw
     * is given too.
     *
     * @param sink receives each pending node
     */
    public final void drainTo(final Consumer<TimeoutNode> sink) {
        TimeoutNode node = stranded;
        stranded = null;
        if (node != null && !node.isCancelled()) {
            sink.accept(node);
        }
        drainBuckets(sink);
    }

    /** {@link #drainTo} for the linked nodes. */
    abstract void drainBuckets(Consumer<TimeoutNode> sink);

    /** Checks every structural invariant, throwing {@link AssertionError} on the first broken. */
    public abstract void checkInvariants();

    abstract void place(TimeoutNode node, long tick);

    /**
     * Returns the number of linked nodes, including cancelled ones not yet dropped.
     *
     * @return the size
     */
    public final long size() {
        return size;
    }

    /**
     * Returns how many cancelled nodes this wheel has dropped since it was created.
     *
     * @return the count
     */
    public final long droppedCancelled() {
        return droppedCancelled;
    }

    /**
     * Returns the tick length.
     *
     * @return nanoseconds per tick
     */
    public final long tickNanos() {
        return tickNanos;
    }

    /**
     * Returns the last processed tick.
     *
     * @return the current tick
     */
    public final long currentTick() {
        return currentTick;
    }

    /**
     * Drops the cancelled nodes of one bucket, keeping the rest in order, and counts them.
     *
     * @return how many nodes the bucket still holds
     */
    final int purgeBucket(final BucketArrays buckets, final int bucket) {
        int dropped = buckets.dropCancelled(bucket);
        size -= dropped;
        droppedCancelled += dropped;
        return buckets.count(bucket);
    }

    final void unlinked(final boolean cancelled) {
        size--;
        if (cancelled) {
            droppedCancelled++;
        }
    }

    /**
     * Empties a bucket, giving its nodes that are not cancelled to {@code sink}; cancelled ones
     * are dropped and counted.
     */
    final void drain(final BucketArrays buckets, final int bucket, final Consumer<TimeoutNode> sink) {
        TimeoutNode[] nodes = buckets.nodes(bucket);
        int count = buckets.count(bucket);
        buckets.truncate(bucket, 0);
        for (int i = 0; i < count; i++) {
            TimeoutNode node = nodes[i];
            nodes[i] = null;
            boolean cancelled = node.isCancelled();
            unlinked(cancelled);
            if (!cancelled) {
                sink.accept(node);
            }
        }
    }

    /**
     * Drops the cancelled nodes among {@code nodes[from, to)}, leaving null in their slots. It is
     * also what makes expiry cheap: these plain reads of each node's state overlap their cache
     * misses, while the expiry that follows does one CAS per node, which as a full fence would
     * otherwise take every miss one at a time.
     */
    final void clearCancelled(final TimeoutNode[] nodes, final int from, final int to) {
        for (int i = from; i < to; i++) {
            if (nodes[i].isCancelled()) {
                nodes[i] = null;
                unlinked(true);
            }
        }
    }

    /** The first tick starting at or after the node's deadline: ceil(elapsed / tick). */
    final long deadlineTick(final TimeoutNode node) {
        long elapsed = node.deadlineNanos - originNanos;
        if (elapsed <= 0) {
            return 0;
        }
        return ceilTicks(elapsed);
    }

    /** The tick containing {@code nowNanos}: floor(elapsed / tick), never behind the current tick. */
    final long tickAt(final long nowNanos) {
        long elapsed = nowNanos - originNanos;
        return elapsed < 0 ? currentTick : Math.max(currentTick, ticksIn(elapsed));
    }

    /** floor(elapsed / tickNanos) for {@code elapsed >= 0}; see {@link Ticks#floorTicks}. */
    final long ticksIn(final long elapsed) {
        return Ticks.floorTicks(elapsed, tickNanos, reciprocal);
    }

    /** ceil(elapsed / tickNanos) for {@code elapsed >= 0}: the first tick starting at or after it. */
    final long ceilTicks(final long elapsed) {
        return Ticks.ceilTicks(elapsed, tickNanos, reciprocal);
    }

    /** Whether a node is due once {@code dueTick} is processed, without dividing. */
    final boolean isDueBy(final TimeoutNode node, final long dueTick) {
        // dueTick * tickNanos cannot overflow: dueTick came from floor(elapsed / tickNanos).
        return node.deadlineNanos - originNanos <= dueTick * tickNanos;
    }

    /** Nanoseconds from {@code nowNanos} to the start of {@code tick}, at least 0, NEVER if unreachable. */
    final long nanosUntilTick(final long tick, final long nowNanos) {
        if (tick > Long.MAX_VALUE / tickNanos) {
            return NEVER;
        }
        long wait = tick * tickNanos - (nowNanos - originNanos);
        return Math.max(0, wait);
    }

    /** Throws if {@code condition} is false; used by {@link #checkInvariants()}. */
    static void check(final boolean condition, final String what) {
        if (!condition) {
            throw new AssertionError("wheel invariant broken: " + what);
        }
    }
}
