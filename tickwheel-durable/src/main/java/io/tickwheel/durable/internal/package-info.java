/**
 * The durable timer's pieces, each testable alone: the record codec ({@link
 * io.tickwheel.durable.internal.RecordCodec}, {@link io.tickwheel.durable.internal.RecordView}: bytes
 * in, records out, no IO), the segment files ({@link io.tickwheel.durable.internal.SegmentFiles}: IO,
 * no timer), the group-commit writer ({@link io.tickwheel.durable.internal.GroupCommitWriter}),
 * recovery ({@link io.tickwheel.durable.internal.Recovery}), compaction ({@link
 * io.tickwheel.durable.internal.Compactor}), the compact index ({@link
 * io.tickwheel.durable.internal.LiveSet}) and its rules ({@link io.tickwheel.durable.internal.JournalCore}),
 * the feed from disk to wheel ({@link io.tickwheel.durable.internal.DueScanner}), and the bridge that
 * holds due timeouts in the wheel ({@link io.tickwheel.durable.internal.WheelBridge}) and runs them
 * ({@link io.tickwheel.durable.internal.HandlerRunner}); and the statistics behind
 * {@code DurableTimer.stats()} ({@link io.tickwheel.durable.internal.DurableStatsRecorder}, whose
 * Javadoc lists which thread counts what; its latencies go into the core's {@code io.tickwheel.internal.LogHistogram}).
 *
 * <h2>Thread map</h2>
 * <ul>
 *   <li><b>Callers</b> build a {@code JournalOp} and put it on the writer's {@code LinkedBlockingQueue}
 *       (put happens-before take). They wait on the op's future, which the writer completes after the
 *       force: completion happens-before the caller's {@code join} returns.</li>
 *   <li><b>The writer thread</b> ({@code tickwheel-journal-writer}) alone appends to the active segment
 *       and forces it. It decides and applies ops holding the {@code JournalCore} monitor, and calls
 *       the sink after releasing it.</li>
 *   <li><b>The scanner thread</b> ({@code tickwheel-journal-scanner}) takes due-soon entries from the
 *       {@code LiveSet} and reads their records under the same monitor, and delivers after releasing it.</li>
 *   <li><b>The compactor thread</b> (one at a time) snapshots chunks of the index under the monitor,
 *       copies records without it (no other thread touches segments it rewrites), relocates under it
 *       again, and deletes the old segments without it (a hung delete stalls only the compactor).
 *       Readers ({@code find}, the scanner) read segments only under the monitor, at locations
 *       relocation has moved off the old segments, so no read meets a deleted file.</li>
 *   <li><b>The wheel's worker</b> runs the bridge's checks and its clock ticker, and hands due timeouts
 *       to the executor; the bridge's map is a {@code ConcurrentHashMap}, and a timeout is handed on by
 *       whoever removes it from the map, so at most once per delivery.</li>
 *   <li><b>Executor threads</b> claim (under the monitor), run handlers, and submit the outcome as an op.</li>
 * </ul>
 * Exactly once per incarnation: a version is claimed at most once ({@code LiveSet.CLAIMED}, set under
 * the monitor), and a cancel or replacement marks the old version {@code DOOMED} when it is decided,
 * so no claim succeeds after a cancel was acknowledged.
 */
package io.tickwheel.durable.internal;
