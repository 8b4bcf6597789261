package io.tickwheel.internal;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event {@code io.tickwheel.TimerStatistics}: one timer's {@code stats()} snapshot, emitted
 * once per period (default 1 s) for each live timer while a recording enables it. Counts are
 * totals since the timer was created; lateness and task time are percentiles of everything
 * recorded so far.
 *
 * <p>Threading: not thread-safe; confined by JFR's periodic-task thread.
 */
@Name("io.tickwheel.TimerStatistics")
@Label("Timer Statistics")
@Category("tickwheel")
@Description("Counters and lateness of a tickwheel timer")
@Period("1 s")
@StackTrace(false)
final class TimerStatisticsEvent extends Event {

    @Label("Timer")
    String timerName;

    @Label("Scheduled")
    long scheduled;

    @Label("Expired")
    long expired;

    @Label("Cancelled")
    long cancelled;

    @Label("Rejected")
    long rejected;

    @Label("Pending")
    long pending;

    @Label("Task Failures")
    long taskFailures;

    @Label("Executor Rejections")
    long executorRejections;

    @Label("Wake-ups")
    long wakeups;

    @Label("Slow Tasks")
    long slowTasks;

    @Label("Lateness p50")
    @Timespan(Timespan.NANOSECONDS)
    long latenessP50;

    @Label("Lateness p99")
    @Timespan(Timespan.NANOSECONDS)
    long latenessP99;

    @Label("Lateness p99.9")
    @Timespan(Timespan.NANOSECONDS)
    long latenessP999;

    @Label("Lateness Max")
    @Timespan(Timespan.NANOSECONDS)
    long latenessMax;

    @Label("Task Time p50")
    @Timespan(Timespan.NANOSECONDS)
    long taskTimeP50;

    @Label("Task Time p99")
    @Timespan(Timespan.NANOSECONDS)
    long taskTimeP99;

    @Label("Task Time Max")
    @Timespan(Timespan.NANOSECONDS)
    long taskTimeMax;
}
