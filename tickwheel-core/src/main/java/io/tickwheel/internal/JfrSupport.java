package io.tickwheel.internal;

import java.lang.ref.WeakReference;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The core's door to JDK Flight Recorder. The module requires {@code jdk.jfr} only statically,
 * so a runtime image without it (a jlinked {@code java.base}) still runs tickwheel: this class
 * checks once whether {@code jdk.jfr} is present and readable, and only then touches
 * {@link JfrEvents}, the one class that names a {@code jdk.jfr} type. Without a recording the
 * events cost an {@code isEnabled()} check: the slow-task event is only built for a task that
 * was already slow, and the statistics event is polled by JFR itself, only while a recording
 * wants it.
 *
 * <p>Registering a periodic event initializes JFR's metadata (about half a second of CPU on a
 * busy 2-core machine), so it is not done when a timer is created: the first timer starts one
 * daemon thread that asks JFR to call back when a recording initializes it (or at once if one
 * already did), and only then is the statistics event registered. A JVM that never records
 * pays for that listener once, off the caller's thread.
 *
 * <p>Timers are held weakly, so a timer dropped without {@code stop()} is still collected (and
 * reported by its leak guard); collected ones are forgotten on the next poll.
 *
 * <p>Threading: thread-safe (via a concurrent queue and an atomic flag).
 */
public final class JfrSupport {

    /** Whether jdk.jfr is in the module graph and readable by this module. */
    static final boolean AVAILABLE = detect();

    private static final ConcurrentLinkedQueue<WeakReference<StatsSource>> SOURCES = new ConcurrentLinkedQueue<>();
    private static final AtomicBoolean HOOKED = new AtomicBoolean();
    /** Set once the statistics event is registered with JFR (a recording initialized it). */
    private static volatile boolean statisticsHooked;

    private JfrSupport() {
    }

    private static boolean detect() {
        try {
            Optional<Module> jfr = ModuleLayer.boot().findModule("jdk.jfr");
            return jfr.isPresent() && JfrSupport.class.getModule().canRead(jfr.get());
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * Makes a timer's statistics appear in the periodic {@code io.tickwheel.TimerStatistics} event.
     *
     * @param source the timer, held weakly
     */
    public static void register(final StatsSource source) {
        if (!AVAILABLE) {
            return;
        }
        SOURCES.add(new WeakReference<>(source));
        if (HOOKED.compareAndSet(false, true)) {
            try {
                Thread hook = new Thread(JfrSupport::hook, "tickwheel-jfr-hook");
                hook.setDaemon(true);
                hook.start();
            } catch (RuntimeException | Error e) {
                notHooked(e);
            }
        }
    }

    private static void hook() {
        try {
            JfrEvents.hookStatisticsWhenRecording(JfrSupport::emitStatistics, () -> statisticsHooked = true,
                    JfrSupport::notHooked);
        } catch (RuntimeException | LinkageError e) {
            notHooked(e);
        }
    }

    /** JFR refused (a security manager, a broken image): stats() still works; only the event is lost. */
    private static void notHooked(final Throwable e) {
        System.getLogger(JfrSupport.class.getName()).log(System.Logger.Level.DEBUG,
                "JFR statistics event not registered", e);
    }

    /**
     * Returns whether the statistics event is registered with JFR, for tests: it is once a
     * recording has initialized JFR after the first timer was created.
     *
     * @return true once registered
     */
    public static boolean statisticsHooked() {
        return statisticsHooked;
    }

    /**
     * Forgets a stopped timer.
     *
     * @param source the timer
     */
    public static void unregister(final StatsSource source) {
        SOURCES.removeIf(ref -> {
            StatsSource held = ref.get();
            return held == null || held == source;
        });
    }

    /** Called by JFR at each period while a recording enables the event. */
    static void emitStatistics() {
        if (!JfrEvents.statisticsEnabled()) {
            return;
        }
        for (WeakReference<StatsSource> ref : SOURCES) {
            StatsSource source = ref.get();
            if (source == null) {
                SOURCES.remove(ref);
            } else {
                JfrEvents.commitStatistics(source.statsName(), source.stats());
            }
        }
    }

    /**
     * Sends a {@code io.tickwheel.SlowTask} event if a recording wants it.
     *
     * @param timerName the timer
     * @param taskName the task's description
     * @param nanos how long it ran
     */
    static void slowTask(final String timerName, final String taskName, final long nanos) {
        if (AVAILABLE) {
            try {
                JfrEvents.slowTask(timerName, taskName, nanos);
            } catch (RuntimeException | LinkageError e) {
                // Diagnostics must never hurt the worker; the slow task is still counted and logged.
            }
        }
    }

    /**
     * Returns how many timers the statistics event polls, for tests.
     *
     * @return the count of registered timers not yet collected
     */
    static int registered() {
        SOURCES.removeIf(ref -> ref.get() == null);
        return SOURCES.size();
    }
}
