package io.tickwheel.bench.workloads;

import com.sun.management.GarbageCollectorMXBean;
import com.sun.management.GcInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads the heap in use right after the most recent collection, as the collector reported it.
 *
 * <p>Threading: thread-safe (stateless; the MXBeans are).
 */
final class GcReports {

    private GcReports() {
    }

    /**
     * Sums the heap pools after the most recent collection of any collector.
     *
     * @return bytes, or -1 when no collector reports one
     */
    static long heapAfterLastGc() {
        Set<String> heapPools = new HashSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        GcInfo latest = null;
        for (java.lang.management.GarbageCollectorMXBean bean
                : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof GarbageCollectorMXBean gc) {
                GcInfo info = gc.getLastGcInfo();
                if (info != null && (latest == null || info.getEndTime() >= latest.getEndTime())) {
                    latest = info;
                }
            }
        }
        if (latest == null) {
            return -1;
        }
        long sum = 0;
        for (Map.Entry<String, MemoryUsage> e : latest.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                sum += e.getValue().getUsed();
            }
        }
        return sum;
    }
}
