package io.tickwheel.bench.workloads;

import io.tickwheel.bench.timers.TimerSpec;

/**
 * One workload of BENCH.md (W1 to W7) or one scenario preset, run against one timer in a fresh
 * JVM.
 *
 * <p>Threading: implementations are stateless; {@link #run(RunContext)} is called once per JVM.
 */
public interface Workload {

    /**
     * Returns the id used on the command line and in the output.
     *
     * @return for example {@code "W3"} or {@code "rpc"}
     */
    String id();

    /**
     * Returns the short name BENCH.md gives it.
     *
     * @return for example {@code "accuracy"}
     */
    String name();

    /**
     * Describes what is run at a size.
     *
     * @param sizes the sizes of the run
     * @return one line
     */
    String describe(Sizes sizes);

    /**
     * Tells whether this workload means anything for a timer.
     *
     * @param spec the timer
     * @return false to skip the pair
     */
    boolean appliesTo(TimerSpec spec);

    /**
     * Runs the workload and puts what it measured into {@code ctx.newMetrics()}.
     *
     * @param ctx the timer, the sizes and the output
     * @throws InterruptedException if interrupted; any failure is reported for this pair
     */
    void run(RunContext ctx) throws InterruptedException;
}
