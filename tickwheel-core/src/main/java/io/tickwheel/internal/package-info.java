/**
 * tickwheel's implementation; not exported, no compatibility promises.
 *
 * <h2>Shape</h2>
 * <pre>
 *   HashedWheelTimer / HierarchicalWheelTimer   public facades: check arguments, delegate
 *        |
 *   TimerCore        lifecycle, counters, schedule path, stop(); any thread
 *        |  NodeQueue (MPSC hand-off: TimeoutNode)
 *   Worker           the worker thread's loop; parks with LockSupport
 *        |
 *   TimingWheel      pure structure, worker-confined: HashedWheel | HierarchicalWheel
 * </pre>
 *
 * <h2>Thread map</h2>
 * <ul>
 *   <li><b>Callers</b> (any thread) run {@code newTimeout}, {@code cancel}, {@code stop},
 *       {@code pendingTimeouts}. They never touch a wheel.</li>
 *   <li><b>The worker</b> (one per timer, from the user's {@code ThreadFactory}) owns the wheel
 *       (its bucket arrays, {@link io.tickwheel.internal.BucketArrays}) and its own counters;
 *       it runs tasks unless a task executor was given.</li>
 *   <li><b>The task executor</b> (optional) runs expired tasks handed to it by the worker.</li>
 *   <li><b>The Cleaner thread</b> ({@code LeakGuard}) reports and stops timers collected without
 *       {@code stop()}.</li>
 * </ul>
 *
 * <h2>Hand-offs and their happens-before edges</h2>
 * <ul>
 *   <li>Caller to worker, a new node: the producer's release store of the node into its queue
 *       slot, paired with the worker's acquire load of that slot ({@link io.tickwheel.internal.NodeQueue}).
 *       The node's final fields (task, deadline, timer) are published by it.</li>
 *   <li>Node to engine: a node keeps only its public timer and finds the engine through a lookup
 *       (a static volatile) that the public timers' class initialisers install; a timer's class
 *       is initialised before any of its instances, hence any of its nodes, exists.</li>
 *   <li>Caller to worker, a cancel: the caller's CAS of the node's state, read by the worker
 *       with acquire before it links, cascades, expires or drains the node. The cancel counter
 *       (atomic add) tells the worker how many cancelled nodes it may still hold.</li>
 *   <li>Worker and callers, sleeping: a producer lowers {@code QUEUED_MIN} (CAS) only when its
 *       deadline is the earliest queued, then loads the worker's park deadline (volatile); the
 *       worker stores its park deadline (volatile), then loads {@code QUEUED_MIN}. One of the two
 *       sees the other, so no queued node is slept past (see {@link io.tickwheel.internal.Worker}).</li>
 *   <li>Worker to task: expired nodes are run on the worker (program order) or passed to
 *       {@code Executor.execute} (the executor's own happens-before).</li>
 *   <li>Worker to stop(): the worker's final drain is read by the stopping thread after it
 *       sees the core's volatile {@code terminated} flag, written after the drain; a producer
 *       racing stop() re-reads the lifecycle after its offer and settles the race with the
 *       node's state CAS.</li>
 *   <li>A failed worker: its loop threw. It refuses new timeouts first (a CAS of the lifecycle,
 *       which also tells it whether a {@code stop()} got there first), drains, and if no stop()
 *       did, tells each drained timeout through {@code cancelled()} itself and leaves the set for
 *       the first {@code stop()} to return; nothing is told twice.</li>
 *   <li>Counts: the worker's retired counter (release store, single writer), the cancel counter
 *       (atomic add) and the producer index are read in that order by {@code pendingTimeouts()}.</li>
 * </ul>
 *
 * <h2>Glossary (Varghese and Lauck, 1987)</h2>
 * <dl>
 *   <dt>tick</dt><dd>the wheel's unit of time; tick {@code t} starts at {@code origin + t * tickNanos}.</dd>
 *   <dt>bucket</dt><dd>the nodes due in the same tick (or, in upper levels, the same range).</dd>
 *   <dt>level</dt><dd>one ring of a hierarchical wheel; level {@code L}'s buckets span
 *       {@code slots^L} ticks each.</dd>
 *   <dt>rounds</dt><dd>in a hashed wheel, how many more laps a node waits in its bucket; kept
 *       implicitly as the node's deadline.</dd>
 *   <dt>cascade</dt><dd>moving a bucket's nodes down a level when the clock enters its range.</dd>
 * </dl>
 */
package io.tickwheel.internal;
