package io.tickwheel.durable.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.durable.DelegatingChannel;
import io.tickwheel.durable.StoredTimeout;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction against every point a crash can stop it at, driven step by step on one thread (the
 * writer, rolls and {@link Compactor} called directly, no timing): the journal is copied as it is
 * before the compaction deletes anything and after it has finished, and each state a crash can leave
 * in between (the temporary file half written; the new segment published and a prefix of the old ones
 * deleted) is recovered on its own. Every one must recover the same timeouts, give out versions above
 * every version given before, and let a new incarnation of a finished or cancelled key survive the
 * next recovery even while the old incarnation's done and cancel records are still on disk.
 */
class CompactionCrashPointTest {

    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");

    @TempDir
    Path tmp;

    @Test
    void everyCrashPointOfACompaction_recoversTheSameTimeouts_andVersionsNeverGoBack() throws Exception {
        Path dir = tmp.resolve("journal");
        long highest;
        Map<String, String> expected;
        Path before = tmp.resolve("before");
        Path after = tmp.resolve("after");
        long upTo;
        try (Journal j = new Journal(dir, ChannelFactory.DEFAULT)) {
            // Segment 1: a timeout that stays, one that will be replaced, one that will fail, one that
            // will finish, and a key scheduled and cancelled again and again.
            StoredTimeout keep = j.schedule("keep");
            j.schedule("replaced");
            StoredTimeout failing = j.schedule("failing");
            StoredTimeout finished = j.schedule("finished");
            churn(j, 10);
            j.roll();
            // Segment 2: the replacement, the done and the failure, and the highest versions of all,
            // given to incarnations of "churn" that are cancelled, so no record of a pending timeout
            // carries them.
            StoredTimeout replacement = j.schedule("replaced");
            j.submit(JournalOp.outcome(JournalOp.Kind.DONE, finished, null, null));
            j.submit(JournalOp.outcome(JournalOp.Kind.FAIL, failing, null, "gave up"));
            highest = churn(j, 20);
            j.roll();
            // Segment 3, the active one when compaction starts: one more cancel, of an old version.
            StoredTimeout once = j.schedule("cancelled");
            j.roll();
            assertThat(j.cancel("cancelled")).isTrue();
            highest = Math.max(highest, once.version());
            expected = Map.of("keep", "pending v" + keep.version(), "replaced", "pending v" + replacement.version(),
                    "failing", "failed v" + failing.version());
            assertThat(state(j.core)).isEqualTo(expected);
            upTo = j.files.activeNumber();
            j.rollForCompaction();
            copySegments(dir, before);
            new Compactor(j.core, j.files, j.closedSizes).run(upTo);
            assertThat(j.closedSizes.keySet()).as("only the compacted segment is closed").containsExactly(upTo + 1);
        }
        copySegments(dir, after);
        List<Path> crashes = new ArrayList<>();
        // Killed while writing the compacted segment: old segments and half a temporary file.
        Path half = crashState(crashes, before, after, 0, false);
        byte[] compacted = Files.readAllBytes(after.resolve(name(upTo + 1)));
        Files.write(half.resolve(name(upTo + 1) + ".tmp"), Arrays.copyOf(compacted, compacted.length / 2));
        // Killed after the rename, before the first delete, and between each two deletes.
        for (int deleted = 0; deleted <= upTo; deleted++) {
            crashState(crashes, before, after, deleted, true);
        }
        for (Path crash : crashes) {
            String at = "crash state " + crash.getFileName();
            StoredTimeout again;
            StoredTimeout finishedAgain;
            try (Journal j = new Journal(crash, ChannelFactory.DEFAULT)) {
                assertThat(state(j.core)).as(at).isEqualTo(expected);
                assertThat(j.core.highestVersion()).as(at + ": highest version after recovery")
                        .isGreaterThanOrEqualTo(highest);
                again = j.schedule("churn");
                finishedAgain = j.schedule("finished");
                assertThat(again.version()).as(at + ": a new incarnation's version").isGreaterThan(highest);
            }
            try (Journal j = new Journal(crash, ChannelFactory.DEFAULT)) {
                // The old incarnations' cancel and done records, where a crash left them, end nothing new.
                assertThat(state(j.core)).as(at + ", reopened").containsEntry("churn", "pending v" + again.version())
                        .containsEntry("finished", "pending v" + finishedAgain.version());
            }
        }
    }

    @Test
    void deleteFailsAfterPublish_nextCompactionTakesEverythingIn_andNothingComesBack() throws Exception {
        Path dir = tmp.resolve("journal");
        AtomicBoolean failDelete = new AtomicBoolean();
        List<Long> left;
        List<Long> expectedLeft;
        ChannelFactory channels = new ChannelFactory() {
            @Override
            public FileChannel open(final Path path, final java.nio.file.OpenOption... options) throws IOException {
                return FileChannel.open(path, options);
            }

            @Override
            public void delete(final Path path) throws IOException {
                if (failDelete.getAndSet(false)) {
                    throw new IOException("injected: cannot delete " + path);
                }
                ChannelFactory.super.delete(path);
            }
        };
        try (Journal j = new Journal(dir, channels)) {
            j.schedule("cancelled-later");
            j.schedule("keep");
            j.roll();
            churn(j, 5);
            long upTo = j.files.activeNumber();
            j.rollForCompaction();
            failDelete.set(true);
            assertThatThrownBy(() -> new Compactor(j.core, j.files, j.closedSizes).run(upTo))
                    .isInstanceOf(IOException.class).hasMessageContaining("injected");
            // The compacted segment now holds the only copy of "cancelled-later" that the state points
            // at; cancel it, then compact again: that drops the cancel record, so the copy must go too.
            assertThat(j.cancel("cancelled-later")).isTrue();
            long upTo2 = j.files.activeNumber();
            j.rollForCompaction();
            new Compactor(j.core, j.files, j.closedSizes).run(upTo2);
            left = segments(dir);
            expectedLeft = List.of(upTo2 + 1, upTo2 + 2);
        }
        try (Journal j = new Journal(dir, ChannelFactory.DEFAULT)) {
            assertThat(state(j.core)).as("after recovery").containsOnlyKeys("keep");
        }
        assertThat(left).as("segments left").isEqualTo(expectedLeft);
    }

    @Test
    void sourceCloseFailsAfterPublish_nextCompactionDeletesTheCopyToo_andACancelledTimeoutStaysCancelled()
            throws Exception {
        Path dir = tmp.resolve("journal");
        AtomicBoolean failClose = new AtomicBoolean();
        ChannelFactory channels = (path, options) -> {
            FileChannel ch = FileChannel.open(path, options);
            // Read-only channels: the compactor's sources (recovery has read everything before arming).
            return options.length == 1 && options[0] == StandardOpenOption.READ ? new CloseFails(ch, failClose) : ch;
        };
        List<Long> left;
        List<Long> expectedLeft;
        try (Journal j = new Journal(dir, channels)) {
            j.schedule("cancelled-later");
            j.schedule("keep");
            j.roll();
            churn(j, 5);
            long upTo = j.files.activeNumber();
            j.rollForCompaction();
            failClose.set(true);
            assertThatThrownBy(() -> new Compactor(j.core, j.files, j.closedSizes).run(upTo))
                    .isInstanceOf(IOException.class).hasMessageContaining("injected");
            assertThat(dir.resolve(name(upTo + 1))).as("published before the source's close failed").exists();
            // The compacted segment holds a copy of "cancelled-later"; its cancel lands in a later segment,
            // which the next compaction deletes: the copy must not outlive it.
            assertThat(j.cancel("cancelled-later")).isTrue();
            long upTo2 = j.files.activeNumber();
            j.rollForCompaction();
            new Compactor(j.core, j.files, j.closedSizes).run(upTo2);
            left = segments(dir);
            expectedLeft = List.of(upTo2 + 1, upTo2 + 2);
        }
        try (Journal j = new Journal(dir, ChannelFactory.DEFAULT)) {
            assertThat(state(j.core)).as("after recovery").containsOnlyKeys("keep");
        }
        assertThat(left).as("segments left").isEqualTo(expectedLeft);
    }

    @Test
    void rollThatCouldNotRecordTheClosedSegment_nextCompactionDeletesItToo() throws Exception {
        Path dir = tmp.resolve("journal");
        try (Journal j = new Journal(dir, ChannelFactory.DEFAULT)) {
            j.schedule("cancelled-later");
            j.schedule("keep");
            // A roll whose switch succeeded and whose closedSizes.put then threw (an Error): segment 1
            // is on disk, still pointed into, and unknown to the closed segments.
            j.files.openActive(j.files.activeNumber() + 1, 0);
            assertThat(j.cancel("cancelled-later")).isTrue();
            long upTo = j.files.activeNumber();
            j.rollForCompaction();
            new Compactor(j.core, j.files, j.closedSizes).run(upTo);
            assertThat(segments(dir)).as("segments left").containsExactly(upTo + 1, upTo + 2);
        }
        try (Journal j = new Journal(dir, ChannelFactory.DEFAULT)) {
            assertThat(state(j.core)).as("after recovery").containsOnlyKeys("keep");
        }
    }

    /** Schedules and cancels one key {@code times} times; returns the last version given. */
    private static long churn(final Journal j, final int times) {
        long last = 0;
        for (int i = 0; i < times; i++) {
            last = j.schedule("churn").version();
            assertThat(j.cancel("churn")).isTrue();
        }
        return last;
    }

    private static Path crashState(final List<Path> crashes, final Path before, final Path after,
            final int deleted, final boolean published) throws IOException {
        Path d = before.resolveSibling("crash-" + crashes.size() + (published ? "-published-" + deleted + "-deleted"
                : "-mid-copy"));
        Files.createDirectories(d);
        try (Stream<Path> old = Files.list(before)) {
            for (Path p : (Iterable<Path>) old::iterator) {
                if (number(p) > deleted) {
                    Files.copy(p, d.resolve(p.getFileName()));
                }
            }
        }
        if (published) {
            copySegments(after, d);
        }
        crashes.add(d);
        return d;
    }

    private static void copySegments(final Path from, final Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.getFileName().toString().endsWith(".seg")) {
                    Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static List<Long> segments(final Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".seg"))
                    .map(CompactionCrashPointTest::number).sorted().toList();
        }
    }

    private static long number(final Path p) {
        return Long.parseLong(p.getFileName().toString().substring(0, 20));
    }

    private static String name(final long number) {
        return String.format(Locale.ROOT, "%020d.seg", number);
    }

    /** Every key of type "t" pending or failed, as "pending vN" / "failed vN". */
    private static Map<String, String> state(final JournalCore core) {
        Map<String, String> out = new TreeMap<>();
        for (String key : List.of("keep", "replaced", "failing", "finished", "churn", "cancelled",
                "cancelled-later")) {
            JournalOp probe = JournalOp.cancel("t", key);
            int s = core.live.find(probe.hash1, probe.hash2);
            if (s >= 0) {
                out.put(key, "pending v" + core.live.version(s));
            }
            JournalCore.Failed f = core.failed.get(probe.keyId());
            if (f != null) {
                out.put(key, "failed v" + f.timeout().version());
            }
        }
        return out;
    }

    /** A channel whose close fails once while armed, after closing the real one. */
    private static final class CloseFails extends DelegatingChannel {
        private final AtomicBoolean armed;

        CloseFails(final FileChannel delegate, final AtomicBoolean armed) {
            super(delegate);
            this.armed = armed;
        }

        @Override
        protected void implCloseChannel() throws IOException {
            super.implCloseChannel();
            if (armed.getAndSet(false)) {
                throw new IOException("injected: close failed");
            }
        }
    }

    /**
     * The journal's pieces wired as {@code JournalStoreCore} wires them, minus its threads' timing:
     * the test rolls and compacts when it says so.
     *
     * <p>Threading: the test thread drives it; each op waits for the writer thread (the future's
     * completion orders the writer's work before the test's next step).
     */
    private static final class Journal implements AutoCloseable {
        final JournalCore core = new JournalCore();
        final SegmentFiles files;
        final TreeMap<Long, Long> closedSizes;
        final GroupCommitWriter writer;

        Journal(final Path dir, final ChannelFactory channels) {
            files = new SegmentFiles(dir, channels);
            closedSizes = new TreeMap<>(Recovery.run(files, core).closedSizes);
            writer = new GroupCommitWriter(core, files, false, new IdleHost(), "test-journal-writer",
                    () -> { });
            writer.start(Thread::start);
        }

        Object submit(final JournalOp op) {
            writer.submit(op);
            return op.future().join();
        }

        StoredTimeout schedule(final String key) {
            return (StoredTimeout) submit(JournalOp.schedule("t", key, new byte[] {1, 2, 3}, FAR));
        }

        boolean cancel(final String key) {
            return (Boolean) submit(JournalOp.cancel("t", key));
        }

        void roll() throws IOException {
            rollTo(files.activeNumber() + 1);
        }

        /** What {@code JournalStoreCore} does before it starts a compactor: skips the target's number. */
        void rollForCompaction() throws IOException {
            rollTo(files.activeNumber() + 2);
        }

        private void rollTo(final long next) throws IOException {
            closedSizes.put(files.activeNumber(), files.activeSize());
            files.openActive(next, 0);
        }

        @Override
        public void close() {
            try {
                writer.close(10_000);
            } finally {
                files.close();
            }
        }
    }
}
