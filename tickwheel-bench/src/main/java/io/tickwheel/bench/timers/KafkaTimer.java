package io.tickwheel.bench.timers;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.apache.kafka.server.util.timer.SystemTimer;
import org.apache.kafka.server.util.timer.SystemTimerReaper;
import org.apache.kafka.server.util.timer.TimerTask;

/**
 * Adapts Kafka's hierarchical {@link SystemTimer} (tick 1 ms, 20 buckets per level, its
 * defaults), driven the way Kafka drives it: by a {@link SystemTimerReaper}, a thread calling
 * {@code advanceClock(200)} in a loop. Expired tasks run on the timer's own executor thread.
 * Kafka takes whole milliseconds, so delays are rounded up, and needs one task object per
 * schedule, which is its timeout object.
 *
 * <p>Threading: thread-safe (via the timer's read-write lock).
 */
public final class KafkaTimer implements BenchTimer {

    private final SystemTimerReaper timer = new SystemTimerReaper(THREAD_MARKER + "-kafka-reaper",
            new SystemTimer(THREAD_MARKER + "-kafka"));

    @Override
    public Object prepare(final Runnable task) {
        return task;
    }

    @Override
    public Object schedule(final Object prepared, final long delayNanos) {
        RunnableTask task = new RunnableTask(BenchTimer.ceilMillis(delayNanos),
                (Runnable) prepared);
        timer.add(task);
        return task;
    }

    /** Kafka cannot tell a cancel from a late cancel: this answers "was not cancelled before". */
    @Override
    public boolean cancel(final Object handle) {
        TimerTask task = (TimerTask) handle;
        boolean wasLive = !task.isCancelled();
        task.cancel();
        return wasLive;
    }

    @Override
    public long pending() {
        return timer.size();
    }

    @Override
    public void stop() {
        try {
            timer.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException("Kafka timer failed to close", e);
        }
    }

    @Override
    public String version() {
        Properties p = new Properties();
        try (InputStream in = SystemTimer.class.getResourceAsStream(
                "/kafka/kafka-version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "kafka-server-common (unknown version)";
        }
        return "kafka-server-common " + p.getProperty("version", "(unknown version)");
    }

    /** The per-schedule task object Kafka's timer requires. */
    private static final class RunnableTask extends TimerTask {
        private final Runnable task;

        RunnableTask(final long delayMs, final Runnable task) {
            super(delayMs);
            this.task = task;
        }

        @Override
        public void run() {
            task.run();
        }
    }
}
