package io.tickwheel.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Describes where a run happened: the JVM and the machine.
 *
 * <p>Threading: stateless.
 */
public final class Environment {

    private Environment() {
    }

    /**
     * Describes the running JVM.
     *
     * @return vendor, name and version
     */
    public static String jvm() {
        return System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name")
                + " " + System.getProperty("java.runtime.version");
    }

    /**
     * Counts the processors the JVM may use.
     *
     * @return the count
     */
    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /**
     * Reads the machine's physical memory.
     *
     * @return bytes
     */
    public static long memoryBytes() {
        return ((com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
    }

    /**
     * Names the processor model, where the OS tells it.
     *
     * @return the model, or the architecture
     */
    public static String cpuModel() {
        Path info = Path.of("/proc/cpuinfo");
        if (Files.isReadable(info)) {
            try {
                List<String> lines = Files.readAllLines(info, StandardCharsets.UTF_8);
                for (String line : lines) {
                    if (line.startsWith("model name")) {
                        return line.substring(line.indexOf(':') + 1).trim();
                    }
                }
            } catch (IOException e) {
                return System.getProperty("os.arch");
            }
        }
        return System.getProperty("os.arch");
    }

    /**
     * Reads the system load average over the last minute, a hint of how busy the machine was.
     *
     * @return the load average, or -1 where the OS does not tell
     */
    public static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static final Pattern SPACES = Pattern.compile("\\s+");
    /** Linux's USER_HZ, the unit of /proc/stat and /proc/self/stat (100 on every mainstream kernel). */
    private static final long NANOS_PER_JIFFY = 10_000_000L;

    /**
     * Reads two CPU accounts, to tell afterwards how much CPU other processes took during a run:
     * the whole machine's busy time (every core, every process, the hypervisor's steal included)
     * and this process's own time plus that of its children it has reaped (the child JVMs). The
     * 1-minute load average cannot tell this: it still carries a build that ended before the run.
     *
     * @return {machine busy ns, this process and reaped children ns}, or {-1, -1} without /proc
     */
    public static long[] cpuAccounts() {
        try {
            String[] cpu = fields(Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.US_ASCII).get(0));
            long busy = 0;
            // user nice system idle iowait irq softirq steal: everything but idle and iowait.
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(cpu[i]);
            }
            String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
            // Fields after the command name (which may hold spaces) start at field 3, the state.
            String[] f = fields(stat.substring(stat.lastIndexOf(')') + 2));
            long self = Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13])
                    + Long.parseLong(f[14]);
            return new long[] {busy * NANOS_PER_JIFFY, self * NANOS_PER_JIFFY};
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
    }

    private static String[] fields(final String line) {
        return SPACES.splitAsStream(line.trim()).toArray(String[]::new);
    }

    /**
     * The CPU other processes took between two {@link #cpuAccounts()} readings, in cores.
     *
     * @param before the first reading
     * @param after the second, taken after every child was reaped
     * @param wallNanos the wall time between them
     * @return the average number of cores others kept busy, or -1 if unknown
     */
    public static double otherProcessesCores(final long[] before, final long[] after, final long wallNanos) {
        if (before[0] < 0 || after[0] < 0 || wallNanos <= 0) {
            return -1;
        }
        long others = (after[0] - before[0]) - (after[1] - before[1]);
        return Math.max(0, others) / (double) wallNanos;
    }

    /**
     * Describes the machine in one line.
     *
     * @return cores, memory, processor and OS
     */
    public static String machine() {
        return String.format(Locale.ROOT, "%d cores, %.1f GiB, %s, %s %s %s", cores(),
                memoryBytes() / (double) (1L << 30), cpuModel(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("os.arch"));
    }
}
