package io.tickwheel.durable.crash;

import io.tickwheel.durable.DurableTimeout;
import io.tickwheel.durable.DurableTimer;
import io.tickwheel.durable.JournalSeams;
import io.tickwheel.durable.JournalStore;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The process {@link JournalCrashTest} kills with SIGKILL. Several threads schedule and cancel
 * durable timeouts on keys of their own (so each key's ops are sequential) while the handler fires
 * them on the timer's executor. Every line goes to stdout in one {@code write} call, in this order:
 * {@code B S key deadline} / {@code B C key} before a call, {@code S key version deadline} /
 * {@code C key result ackMillis} after it returned (only then is it acknowledged), and
 * {@code F key version deadline} when a handler starts. With small segments, a reporter thread also
 * writes {@code K sizeRolls compactionsStarted compactionsFinished} whenever they change (checked
 * every few milliseconds), so the test can show the kills came among rolls and compactions.
 */
public final class CrashChild {

    private static final FileOutputStream OUT = new FileOutputStream(FileDescriptor.out);

    private CrashChild() {
    }

    /**
     * Runs until killed.
     *
     * @param args journal directory, seed, threads, keys per thread, longest delay (ms), and optionally
     *             segment size and compaction threshold in bytes (default: the store's defaults)
     * @throws Exception never expected
     */
    public static void main(final String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        int threads = Integer.parseInt(args[2]);
        int keys = Integer.parseInt(args[3]);
        int maxDelay = Integer.parseInt(args[4]);
        JournalStore store = args.length > 5
                ? JournalSeams.smallSegments(dir, Long.parseLong(args[5]), Long.parseLong(args[6]))
                : JournalStore.open(dir);
        DurableTimer timer = DurableTimer.builder(store)
                .handler("c", t -> line("F " + t.key() + " " + ((io.tickwheel.durable.StoredTimeout) t).version() + " "
                        + t.deadline().toEpochMilli()))
                .build();
        line("READY");
        for (int i = 0; i < threads; i++) {
            int id = i;
            Thread th = new Thread(() -> work(timer, id, keys, maxDelay, new SplittableRandom(seed * 31 + id)));
            th.start();
        }
        long[] reported = new long[3];
        while (true) {
            Thread.sleep(2);
            long[] now = JournalSeams.maintenanceCounts(store);
            if (!Arrays.equals(now, reported)) {
                line("K " + now[0] + " " + now[1] + " " + now[2]);
                reported = now;
            }
        }
    }

    private static void work(final DurableTimer timer, final int id, final int keys, final int maxDelay,
            final SplittableRandom rnd) {
        while (true) {
            String key = "t" + id + "-" + rnd.nextInt(keys);
            if (rnd.nextInt(3) > 0) {
                Instant deadline = Instant.ofEpochMilli(System.currentTimeMillis() + 100 + rnd.nextInt(maxDelay));
                line("B S " + key + " " + deadline.toEpochMilli());
                DurableTimeout t = timer.schedule("c", key, new byte[rnd.nextInt(64)], deadline);
                line("S " + key + " " + ((io.tickwheel.durable.StoredTimeout) t).version() + " "
                        + deadline.toEpochMilli());
            } else {
                line("B C " + key);
                boolean r = timer.cancel("c", key);
                line("C " + key + " " + r + " " + System.currentTimeMillis());
            }
        }
    }

    private static void line(final String s) {
        byte[] b = (s + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (OUT) {
            try {
                OUT.write(b);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
