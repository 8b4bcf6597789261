package io.tickwheel.internal;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event {@code io.tickwheel.SlowTask}: a timer task ran longer than its timer's slow-task
 * threshold. Committed after the task returned, on the thread that ran it.
 *
 * <p>Threading: not thread-safe; confined by the thread committing it.
 */
@Name("io.tickwheel.SlowTask")
@Label("Slow Timer Task")
@Category("tickwheel")
@Description("A TimerTask ran longer than its timer's slow-task threshold")
@StackTrace(false)
final class SlowTaskEvent extends Event {

    @Label("Timer")
    String timerName;

    @Label("Task")
    String taskName;

    @Label("Task Duration")
    @Timespan(Timespan.NANOSECONDS)
    long taskDuration;
}
