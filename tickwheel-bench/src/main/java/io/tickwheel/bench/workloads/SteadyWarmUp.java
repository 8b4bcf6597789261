package io.tickwheel.bench.workloads;

/**
 * The warm-up of a paced scenario: the scenario runs its own load, on the timer it will measure,
 * until the JIT compiler threads have gone quiet, so that its window measures compiled code and
 * not the compilers.
 *
 * <p>Why it exists: {@code rpc} used to warm up for one second on a timer of its own, and
 * {@code heartbeat} not at all. In both, C2 was still compiling the timers' code inside the window
 * (the worker's expiry path, for instance, runs only for the one timeout in a hundred that fires,
 * and reaches C2's threshold seconds in), and the compiler threads' CPU counted in the window's
 * process CPU: 84 to 127 ms a second for tickwheel against 25 to 37 for Netty (2026-11-29,
 * {@code -XX:+PrintCompilation} and the window's {@code jitCpuMsPerSec}), which made tickwheel
 * look 1.45 x Netty's CPU per request when, without the compilers, it was at par or below. A
 * service pays its compilations once, in its first seconds; the scenarios are about the hours
 * after. {@code lease} learnt the same in 2026-11-24 and warms up on its own timer.
 *
 * <p>The warm-up is over once it has run {@code minNanos} and the compilers used at most
 * {@link #QUIET_MS_PER_SEC} in each of the last two chunks of {@link #CHUNK_NANOS}, twice: the
 * first time they go quiet, it collects garbage (a full, stop-the-world collection) and waits for
 * them to go quiet again. The scenarios collect before their window (so that it allocates into
 * recycled heap pages, as a long-running service does), and the timeouts due during that pause
 * fire late, in a catch-up the steady state never runs: compiled without it, the timers' code
 * took uncommon traps there and was recompiled inside the window (rpc: 20 to 31 ms a second of
 * compiler CPU in tickwheel's window against 1 in Netty's, 2026-11-29). A service meets its
 * collector's pauses long before its steady state; so does the warm-up now, as {@code lease}'s
 * does. It also ends once it has run {@code maxNanos}, whatever the compilers do. The window
 * still reports its own compiler CPU ({@code jitCpuMsPerSec}), so a warm-up cut off at the
 * maximum shows.
 *
 * <p>Threading: not thread-safe; confined to the scenario's producer thread.
 */
final class SteadyWarmUp {

    /** How often the compilers' CPU is read. */
    static final long CHUNK_NANOS = 500 * Tasks.MS;
    /** Compiler CPU per second that counts as quiet: 0.2 % of a core. */
    static final double QUIET_MS_PER_SEC = 2.0;
    private static final int QUIET_CHUNKS = 2;

    private final long startNanos;
    private final long minNanos;
    private final long maxNanos;
    private final long minAfterCollectionNanos;
    private final Pacer pacer;
    private long collectedAt;
    private boolean cutOff;
    private long chunkStart;
    private long chunkJit;
    private int quietChunks;
    private boolean collected;
    private double lastJitMsPerSec = Double.NaN;
    private long endNanos = -1;

    /**
     * Starts a warm-up now.
     *
     * @param pacer the scenario's pacer, moved on after the collection so that the load does not
     *        catch up in a burst
     * @param minNanos the least it runs
     * @param minAfterCollectionNanos the least it runs after its collection: what the pause held
     *        up (fires, and their echo one timeout later) must be over before the warm-up ends
     * @param maxNanos the most it runs
     */
    SteadyWarmUp(final Pacer pacer, final long minNanos, final long minAfterCollectionNanos, final long maxNanos) {
        if (minNanos < 0 || minAfterCollectionNanos < 0 || maxNanos < minNanos) {
            throw new IllegalArgumentException("warm-up bounds " + minNanos + ", " + minAfterCollectionNanos
                    + ", " + maxNanos);
        }
        this.pacer = pacer;
        this.minNanos = minNanos;
        this.minAfterCollectionNanos = minAfterCollectionNanos;
        this.maxNanos = maxNanos;
        this.startNanos = System.nanoTime();
        this.chunkStart = startNanos;
        this.chunkJit = Probes.compilerCpuNanos();
    }

    /**
     * Says whether the warm-up is over; call it between operations, with the time read for them.
     * It reads the compilers' CPU only once per chunk.
     *
     * @param nowNanos the time read for the last operation
     * @return true once the warm-up is over (and from then on)
     * @throws InterruptedException if interrupted during its collection
     */
    boolean over(final long nowNanos) throws InterruptedException {
        if (endNanos >= 0) {
            return true;
        }
        if (nowNanos - chunkStart < CHUNK_NANOS) {
            return false;
        }
        long jit = Probes.compilerCpuNanos();
        if (jit >= 0 && chunkJit >= 0) {
            lastJitMsPerSec = (jit - chunkJit) / 1e6 / ((nowNanos - chunkStart) / 1e9);
            quietChunks = lastJitMsPerSec <= QUIET_MS_PER_SEC ? quietChunks + 1 : 0;
        } else {
            // No reading on this platform: run the minimum and let the window's figure speak.
            quietChunks = QUIET_CHUNKS;
        }
        chunkStart = nowNanos;
        chunkJit = jit;
        long ran = nowNanos - startNanos;
        if (ran >= maxNanos) {
            cutOff = quietChunks < QUIET_CHUNKS || !collected;
            endNanos = nowNanos;
            return true;
        }
        if (ran < minNanos || quietChunks < QUIET_CHUNKS) {
            return false;
        }
        if (!collected) {
            collected = true;
            quietChunks = 0;
            Probes.usedHeapAfterGc();
            pacer.restartIn(10 * Tasks.MS);
            collectedAt = System.nanoTime();
            chunkStart = collectedAt;
            chunkJit = Probes.compilerCpuNanos();
            return false;
        }
        if (nowNanos - collectedAt < minAfterCollectionNanos) {
            return false;
        }
        endNanos = nowNanos;
        return true;
    }

    /**
     * Describes the finished warm-up, for the progress line.
     *
     * @return e.g. "warmed up in 6.5 s (compilers at 0.4 ms/s)"
     */
    String describe() {
        String compilers = Double.isNaN(lastJitMsPerSec) ? "compilers not readable here"
                : String.format(java.util.Locale.ROOT, "compilers at %.1f ms/s", lastJitMsPerSec);
        return String.format(java.util.Locale.ROOT, "warmed up in %.1f s (%s%s)", seconds(), compilers,
                cutOff ? ", cut off at the maximum" : "");
    }

    /** Puts how long the warm-up ran and the compilers' last figure. */
    void put(final Metrics m) {
        m.put("warmUpSeconds", seconds());
        m.put("warmUpEndJitMsPerSec", Double.isNaN(lastJitMsPerSec) ? -1 : lastJitMsPerSec);
    }

    private double seconds() {
        return ((endNanos >= 0 ? endNanos : System.nanoTime()) - startNanos) / 1e9;
    }
}
