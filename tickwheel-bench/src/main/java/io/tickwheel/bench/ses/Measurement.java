package io.tickwheel.bench.ses;

/**
 * One subject's figures from one workload (the median of its rounds when it comes from
 * {@link SesComparison#measure}).
 *
 * <p>Threading: immutable.
 *
 * @param workload the workload's name
 * @param subject what ran it, e.g. {@code "STPE(1) removeOnCancel"}
 * @param ops operations measured
 * @param wallNanos wall time of the operation loop
 * @param cpuNanos process CPU time over the same loop, or negative when unknown
 * @param callerCpuNanos the CPU time of the thread running the loop, or negative when unknown
 * @param retainedBytes heap the subject still held after the loop (see each workload)
 */
public record Measurement(String workload, String subject, long ops, long wallNanos, long cpuNanos,
        long callerCpuNanos, long retainedBytes) {

    /**
     * Creates a measurement from a loop's elapsed clocks.
     *
     * @param workload the workload's name
     * @param subject what ran it
     * @param ops operations measured
     * @param elapsed the loop's wall, process CPU and caller CPU time
     * @param retainedBytes the heap held
     */
    Measurement(final String workload, final String subject, final long ops, final Probe.Clocks elapsed,
            final long retainedBytes) {
        this(workload, subject, ops, elapsed.wallNanos(), elapsed.cpuNanos(), elapsed.callerCpuNanos(),
                retainedBytes);
    }

    /**
     * Returns the wall time per operation.
     *
     * @return nanoseconds
     */
    public double wallNanosPerOp() {
        return (double) wallNanos / ops;
    }

    /**
     * Returns the process CPU time per operation.
     *
     * @return nanoseconds, or NaN when unknown
     */
    public double cpuNanosPerOp() {
        return cpuNanos < 0 ? Double.NaN : (double) cpuNanos / ops;
    }

    /**
     * Returns the calling thread's CPU time per operation.
     *
     * @return nanoseconds, or NaN when unknown
     */
    public double callerCpuNanosPerOp() {
        return callerCpuNanos < 0 ? Double.NaN : (double) callerCpuNanos / ops;
    }
}
