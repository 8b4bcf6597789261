package io.tickwheel.internal;

import io.tickwheel.internal.StatsSnapshot.Counter;
import java.lang.invoke.MethodHandles;
import java.util.function.Consumer;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

/**
 * The only class that names {@code jdk.jfr} types besides the events themselves; loaded only
 * after {@link JfrSupport} found {@code jdk.jfr} present.
 *
 * <p>Threading: thread-safe (stateless; JFR events are thread-confined objects).
 */
final class JfrEvents {

    private JfrEvents() {
    }

    /**
     * Registers the statistics event when JFR is initialized by a recording (at once if it was).
     * The listener runs on the thread that starts the recording, inside the application's call:
     * whatever fails in it goes to {@code failed}, never to that call.
     */
    static void hookStatisticsWhenRecording(final Runnable hook, final Runnable registered,
            final Consumer<Throwable> failed) {
        FlightRecorder.addListener(new FlightRecorderListener() {
            @Override
            public void recorderInitialized(final FlightRecorder recorder) {
                try {
                    // Loads (and has JFR instrument) the slow-task event's class here, on the thread
                    // that started the recording or on the hook's, so that a worker's first slow
                    // task does not pay for it.
                    MethodHandles.lookup().ensureInitialized(SlowTaskEvent.class);
                    FlightRecorder.addPeriodicEvent(TimerStatisticsEvent.class, hook);
                    registered.run();
                } catch (IllegalAccessException | RuntimeException | LinkageError e) {
                    failed.accept(e);
                }
            }
        });
    }

    static boolean statisticsEnabled() {
        return new TimerStatisticsEvent().isEnabled();
    }

    static void commitStatistics(final String timerName, final StatsSnapshot stats) {
        TimerStatisticsEvent event = new TimerStatisticsEvent();
        if (!event.shouldCommit()) {
            return;
        }
        event.timerName = timerName;
        event.scheduled = stats.get(Counter.SCHEDULED);
        event.expired = stats.get(Counter.EXPIRED);
        event.cancelled = stats.get(Counter.CANCELLED);
        event.rejected = stats.get(Counter.REJECTED);
        event.pending = stats.get(Counter.PENDING);
        event.taskFailures = stats.get(Counter.TASK_FAILURES);
        event.executorRejections = stats.get(Counter.EXECUTOR_REJECTIONS);
        event.wakeups = stats.get(Counter.WAKEUPS);
        event.slowTasks = stats.get(Counter.SLOW_TASKS);
        HistogramData lateness = stats.lateness();
        event.latenessP50 = lateness.valueAtPercentile(50);
        event.latenessP99 = lateness.valueAtPercentile(99);
        event.latenessP999 = lateness.valueAtPercentile(99.9);
        event.latenessMax = lateness.max();
        HistogramData taskTime = stats.taskTime();
        event.taskTimeP50 = taskTime.valueAtPercentile(50);
        event.taskTimeP99 = taskTime.valueAtPercentile(99);
        event.taskTimeMax = taskTime.max();
        event.commit();
    }

    /**
     * Sends the slow-task event, unless no recording has ever initialized JFR: then nothing could
     * record it, and the event class's first load would initialize JFR's metadata on the calling
     * thread, a worker, which fired nothing for 150 to 250 ms (SlowTaskReportTest).
     */
    static void slowTask(final String timerName, final String taskName, final long nanos) {
        if (!FlightRecorder.isInitialized()) {
            return;
        }
        SlowTaskEvent event = new SlowTaskEvent();
        if (event.shouldCommit()) {
            event.timerName = timerName;
            event.taskName = taskName;
            event.taskDuration = nanos;
            event.commit();
        }
    }
}
