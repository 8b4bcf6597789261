package io.tickwheel.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

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
