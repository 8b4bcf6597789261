/**
 * tickwheel's implementation; not exported, no compatibility promises.
 *
 * <h2>Layers</h2>
 * Each class uses only its own layer and the ones below it, and no classes form a cycle
 * ({@code LayeringTest} checks this on the import graph in every build):
 * <pre>
 *   facades     HashedWheelTimer, HierarchicalWheelTimer, Timers, WheelScheduledExecutorService,
 *               TimeoutFutures: check arguments, fill a TimerOptions, delegate
 *   adapters    ScheduledExecutorCore, ScheduledTask, FuturesTimeoutTask: JDK interfaces over a Timer
 *   engine      TimerCore      the schedule path and the wiring; any thread
 *               HandOff        queues + counters + the wake handshake (producers | worker)
 *               LaneTransfer   the worker's moves from the lanes into the wheel, read ahead
 *               Lifecycle      start, stop, waiting for the worker, a failed worker's drain, leak guard
 *               Worker         the worker thread's loop; sees only HandOff, its wheel and WorkerControl
 *               TimerOptions, LeakGuard, WorkerControl
 *               StatsRecorder, TimedTask: what the worker (and the executor) measure
 *   structures  TimeoutNode (+ TimeoutOwner, what a node asks of its engine), NodeQueue (MPSC)
 *               in NodeLanes (a lane per producer thread), OwnLane (the worker's own schedules),
 *               PendingLimit,
 *               TimingWheel: HashedWheel | HierarchicalWheel over BucketArrays; worker-confined
 *   base        Ticks (all tick arithmetic), Clock, PaddedLongs, Checks, NamedThreadFactory,
 *               SystemProperties; statistics data (LogBuckets, LogHistogram, HistogramData,
 *               StatsSnapshot, StatsSource); JFR (JfrSupport, JfrEvents and the two events)
 *   api         Timer, Timeout, TimerTask (io.tickwheel)
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
 *   <li><b>The completion threads</b> ({@link io.tickwheel.internal.CompletionExecutor},
 *       {@code tickwheel-futures-N}) complete the futures of {@code TimeoutFutures} whose delay
 *       passed, unless the caller gave an executor; the worker hands them the job
 *       ({@code Executor.execute}'s own happens-before).</li>
 * </ul>
 * Every thread tickwheel's own factories make ({@link io.tickwheel.internal.NamedThreadFactory})
 * starts without its creator's inheritable thread-locals, with the system class loader as its
 * context class loader.
 *
 * <h2>Hand-offs and their happens-before edges</h2>
 * <ul>
 *   <li>Caller to worker, a new node: the producer's release fence, then its plain store of the
 *       node into its claimed slot of its lane's queue (together a release store), paired with the
 *       worker's acquire load of that slot ({@link io.tickwheel.internal.NodeQueue}; a thread always
 *       offers into the same lane, see {@link io.tickwheel.internal.HandOff}). The node's fields
 *       (task, deadline, owner) are published by it; a cancel later clears the task (release),
 *       after its own state CAS, which the worker's expire CAS excludes.</li>
 *   <li>Worker to itself, a node its task schedules (a re-arm): no hand-off at all. The schedule
 *       path sees it is on the worker thread and appends the node to the
 *       {@link io.tickwheel.internal.OwnLane} (plain array, worker-confined), which the worker
 *       links before it parks and drains on exit; the lane's count of offers is the one cell
 *       other threads read (release store before the node is returned, acquire load in
 *       {@code pendingTimeouts()}). With a pending limit there is no own lane: the limit's
 *       check and claim need every schedule in the one queue.</li>
 *   <li>Node to engine: a node keeps one final reference, its {@code TimeoutOwner}, made by the
 *       engine for each public timer in that timer's constructor and published with the node's
 *       other fields; it holds the public timer (for {@code timer()}) and the engine (to
 *       count a cancel). The engine never holds it, so the leak guard can watch the public timer.</li>
 *   <li>Caller to worker, a cancel: the caller's CAS of the node's state, read by the worker
 *       with acquire before it links, cascades, expires or drains the node. The cancel counters
 *       (atomic add, one per lane) tell the worker how many cancelled nodes it may still hold.
 *       If the node is still queued, the canceller then overwrites its slot with a shared,
 *       already cancelled tombstone (plain store after an identity check of the slot; the only
 *       other writer of a slot is the worker's null once it consumed it, and either order is
 *       harmless), so the worker drops it without loading the node (see
 *       {@link io.tickwheel.internal.NodeQueue}).</li>
 *   <li>Worker and callers, sleeping: a producer lowers {@code QUEUED_MIN} (CAS) only when its
 *       deadline is the earliest queued, then loads the worker's park deadline (volatile); the
 *       worker stores its park deadline (volatile), then loads {@code QUEUED_MIN}. One of the two
 *       sees the other, so no queued node is slept past (nor its transfer start, which a long
 *       backlog moves earlier); the worker then stores each lane's {@code TRANSFER_AT} (volatile)
 *       and reloads that lane's producer index, against producers' atomic claim then load of
 *       their lane's {@code TRANSFER_AT}, so
 *       a growing backlog always gets looked at again (see {@link io.tickwheel.internal.HandOff}).</li>
 *   <li>Worker to task: expired nodes are run on the worker (program order) or passed to
 *       {@code Executor.execute} (the executor's own happens-before).</li>
 *   <li>Worker to stop(): the worker's final drain is read by the stopping thread after it
 *       sees the lifecycle's volatile {@code terminated} flag, written after the drain; a producer
 *       racing stop() re-reads the lifecycle after its offer and settles the race with the
 *       node's state CAS.</li>
 *   <li>A failed worker: its loop threw. It refuses new timeouts first (a CAS of the lifecycle,
 *       which also tells it whether a {@code stop()} got there first), drains, and if no stop()
 *       did, tells each drained timeout through {@code cancelled()} itself and leaves the set for
 *       the first {@code stop()} to return; nothing is told twice.</li>
 *   <li>Counts: the worker's retired counter (release store, single writer), the cancel counters
 *       (atomic add) and the lanes' producer indexes with the own lane's count are read in that
 *       order by {@code pendingTimeouts()}.</li>
 *   <li>Statistics: the worker is the only writer of the lateness histogram (whose count is the
 *       expired count), drained and wake-ups (plain read of its own value, release store; readers
 *       acquire); task time is written by the worker, or with atomic adds by the executor's
 *       threads ({@code TimedTask});
 *       {@code stats()} loads the worker's counts, then the cancel counters, then the producer
 *       indexes, so a snapshot never shows more ended than scheduled. The schedule path gains no
 *       write: "scheduled" is the producer index and "rejected" is counted only on refusal.</li>
 *   <li>JFR: the periodic statistics hook holds timers weakly in a concurrent queue; the JFR
 *       thread takes snapshots like any reader.</li>
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
