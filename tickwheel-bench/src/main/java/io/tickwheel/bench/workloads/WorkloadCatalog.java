package io.tickwheel.bench.workloads;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every workload (W1 to W7, BENCH.md's names) and every scenario preset, in output order.
 *
 * <p>Threading: immutable.
 */
public final class WorkloadCatalog {

    private static final List<Workload> WORKLOADS = List.of(new ScheduleWorkload(),
            new ChurnWorkload(), new AccuracyWorkload(), new IdleWorkload(), new FarSetWorkload(),
            new BurstWorkload(), new ProducersWorkload());

    private static final List<Workload> SCENARIOS = List.of(new RpcScenario(),
            new HeartbeatScenario(), new LeaseScenario(), new OrderCloseScenario());

    private WorkloadCatalog() {
    }

    /**
     * Lists W1 to W7.
     *
     * @return the workloads, in order
     */
    public static List<Workload> workloads() {
        return WORKLOADS;
    }

    /**
     * Lists the scenario presets.
     *
     * @return rpc, heartbeat, lease, order-close
     */
    public static List<Workload> scenarios() {
        return SCENARIOS;
    }

    /**
     * Finds a workload or scenario by id, ignoring case.
     *
     * @param id for example {@code "W3"} or {@code "lease"}
     * @return the workload, if there is one by that id
     */
    public static Optional<Workload> find(final String id) {
        return Stream.concat(WORKLOADS.stream(), SCENARIOS.stream())
                .filter(w -> w.id().equalsIgnoreCase(id)).findFirst();
    }
}
