package io.tickwheel.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each row of the durable section of docs/BAD-INPUT.md: the exception and the argument it names. */
class DurableBadInputTest {

    @TempDir
    Path dir;

    private DurableTimer timer;

    @BeforeEach
    void open() {
        timer = DurableTimer.builder(JournalStore.builder(dir).maxPayloadBytes(16).build()).build();
    }

    @AfterEach
    void close() {
        timer.close();
    }

    private static final Instant AT = Instant.parse("2100-01-01T00:00:00Z");
    private static final String LONG_TYPE = "t".repeat(129);
    private static final String LONG_KEY = "é".repeat(257);

    static Stream<Arguments> rows() {
        return Stream.of(
                row("schedule type null", t -> t.schedule(null, "k", new byte[0], AT), NullPointerException.class,
                        "type"),
                row("schedule type empty", t -> t.schedule("", "k", new byte[0], AT),
                        IllegalArgumentException.class, "type"),
                row("schedule type 129 chars", t -> t.schedule(LONG_TYPE, "k", new byte[0], AT),
                        IllegalArgumentException.class, "type"),
                row("schedule key null", t -> t.schedule("t", null, new byte[0], AT), NullPointerException.class,
                        "key"),
                row("schedule key empty", t -> t.schedule("t", "", new byte[0], AT), IllegalArgumentException.class,
                        "key"),
                row("schedule key 514 bytes UTF-8", t -> t.schedule("t", LONG_KEY, new byte[0], AT),
                        IllegalArgumentException.class, "key"),
                row("schedule payload null", t -> t.schedule("t", "k", null, AT), NullPointerException.class,
                        "payload"),
                row("schedule payload over the store's limit", t -> t.schedule("t", "k", new byte[17], AT),
                        IllegalArgumentException.class, "payload"),
                row("schedule deadline null", t -> t.schedule("t", "k", new byte[0], (Instant) null),
                        NullPointerException.class, "deadline"),
                row("schedule delay null", t -> t.schedule("t", "k", new byte[0], (Duration) null),
                        NullPointerException.class, "delay"),
                row("schedule delay too large", t -> t.schedule("t", "k", new byte[0], Duration.ofSeconds(
                        Long.MAX_VALUE)), IllegalArgumentException.class, "delay"),
                row("scheduleAsync key empty", t -> t.scheduleAsync("t", "", new byte[0], AT).join(),
                        IllegalArgumentException.class, "key"),
                row("cancel type null", t -> t.cancel(null, "k"), NullPointerException.class, "type"),
                row("cancelAsync key null", t -> t.cancelAsync("t", null).join(), NullPointerException.class, "key"),
                row("find key empty", t -> t.find("t", ""), IllegalArgumentException.class, "key"),
                row("retryFailed type empty", t -> t.retryFailed("", "k"), IllegalArgumentException.class, "type"),
                // A lone surrogate has no UTF-8 form: encoded, it would become '?' and alias another key.
                row("schedule key lone high surrogate", t -> t.schedule("t", "order-\uD800", new byte[0], AT),
                        IllegalArgumentException.class, "key: unpaired surrogate U+D800 at index 6"),
                row("schedule key lone low surrogate", t -> t.schedule("t", "order-\uDC00", new byte[0], AT),
                        IllegalArgumentException.class, "key: unpaired surrogate U+DC00 at index 6"),
                row("schedule key pair reversed", t -> t.schedule("t", "\uDE00\uD83D", new byte[0], AT),
                        IllegalArgumentException.class, "key: unpaired surrogate U+DE00 at index 0"),
                row("schedule type high surrogate last", t -> t.schedule("t\uD83D", "k", new byte[0], AT),
                        IllegalArgumentException.class, "type: unpaired surrogate U+D83D at index 1"),
                row("cancel key lone surrogate", t -> t.cancel("t", "\uD800"), IllegalArgumentException.class,
                        "key: unpaired"),
                row("find key lone surrogate", t -> t.find("t", "a\uDC00b"), IllegalArgumentException.class,
                        "key: unpaired"));
    }

    private static Arguments row(final String name, final ThrowingConsumer<DurableTimer> call,
            final Class<? extends Throwable> type, final String argument) {
        return Arguments.of(name, call, type, argument);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void badInput_throwsNamingTheArgument(final String name, final ThrowingConsumer<DurableTimer> call,
            final Class<? extends Throwable> type, final String argument) {
        assertThatThrownBy(() -> call.accept(timer)).as(name).isInstanceOf(type).hasMessageStartingWith(argument);
    }

    @Test
    void delay_zeroOrNegative_acceptedAsDueNow() {
        Instant before = Instant.now();
        DurableTimeout t = timer.schedule("t", "k", new byte[0], Duration.ofSeconds(-5));
        assertThat(t.deadline()).isBefore(before);
        assertThat(timer.schedule("t", "k2", new byte[0], Duration.ZERO).deadline()).isBeforeOrEqualTo(Instant.now());
    }

    @Test
    void afterClose_scheduleAndCancelThrowIllegalState() {
        timer.close();
        timer.close();
        assertThatThrownBy(() -> timer.schedule("t", "k", new byte[0], AT)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> timer.scheduleAsync("t", "k", new byte[0], AT).join())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> timer.cancel("t", "k")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> timer.pendingTimeouts()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void journalStore_findAfterClose_throwsIllegalState() throws Exception {
        Path own = dir.resolve("own");
        JournalStore store = JournalStore.open(own);
        store.open(new RecoveryTestSink(), Clock.systemUTC());
        store.schedule("t", "k", new byte[] {1}, AT).join();
        assertThat(store.find("t", "k")).isPresent();
        store.close();
        // Before, the read re-opened the segment after its channels were closed, and nothing closed it again.
        assertThatThrownBy(() -> store.find("t", "k")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void builder_badArguments_throwNamingTheArgument() {
        assertThatThrownBy(() -> DurableTimer.builder(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("store");
        DurableTimer.Builder b = DurableTimer.builder(JournalStore.open(dir.resolve("b")));
        assertThatThrownBy(() -> b.handler(null, t -> { })).isInstanceOf(NullPointerException.class).hasMessage("type");
        assertThatThrownBy(() -> b.handler("t", null)).isInstanceOf(NullPointerException.class).hasMessage("task");
        b.handler("t", t -> { });
        assertThatThrownBy(() -> b.handler("t", t -> { })).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("type");
        assertThatThrownBy(() -> b.timer(null)).isInstanceOf(NullPointerException.class).hasMessage("timer");
        assertThatThrownBy(() -> b.executor(null)).isInstanceOf(NullPointerException.class).hasMessage("executor");
        assertThatThrownBy(() -> b.clock(null)).isInstanceOf(NullPointerException.class).hasMessage("clock");
        assertThatThrownBy(() -> b.retry(0, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("maxAttempts");
        assertThatThrownBy(() -> b.retry(1, null)).isInstanceOf(NullPointerException.class)
                .hasMessage("firstBackoff");
        assertThatThrownBy(() -> b.retry(1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("firstBackoff");
        assertThatThrownBy(() -> JournalStore.open(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("directory");
        assertThatThrownBy(() -> JournalStore.builder(dir).maxPayloadBytes(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("maxPayloadBytes");
        assertThatThrownBy(() -> JournalStore.builder(dir).maxPayloadBytes((8 << 20) + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("maxPayloadBytes");
        b.build().close();
    }

    @Test
    void keysWithSurrogatePairs_areKeptApartAndFoundAsGiven() {
        String grinning = "order-\uD83D\uDE00";
        String smiling = "order-\uD83D\uDE03";
        timer.schedule("t", grinning, new byte[] {1}, AT);
        timer.schedule("t", smiling, new byte[] {2}, AT);
        assertThat(timer.pendingTimeouts()).isEqualTo(2);
        assertThat(timer.find("t", grinning)).hasValueSatisfying(t -> {
            assertThat(t.key()).isEqualTo(grinning);
            assertThat(t.payload()).containsExactly(1);
        });
        assertThat(timer.cancel("t", smiling)).isTrue();
        assertThat(timer.find("t", grinning)).isPresent();
    }

    @Test
    void statsMinus_argumentsSwapped_throwsNamingEarlier() {
        DurableTimerStats before = timer.stats();
        timer.schedule("t", "k", new byte[0], AT);
        DurableTimerStats after = timer.stats();
        assertThat(after.minus(before).scheduled()).isEqualTo(1);
        assertThatThrownBy(() -> before.minus(after)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("earlier");
    }

    @Test
    void store_openedTwice_throwsIllegalState() {
        JournalStore store = JournalStore.open(dir.resolve("twice"));
        try (DurableTimer t = DurableTimer.builder(store).build()) {
            assertThatThrownBy(() -> store.open(new RecoveryTestSink(), Clock.systemUTC()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already open");
            assertThatThrownBy(() -> DurableTimer.builder(store).build()).isInstanceOf(IllegalStateException.class);
            t.pendingTimeouts();
        }
    }

    /** A sink for direct store calls. */
    static final class RecoveryTestSink implements TimerStore.Sink {
        @Override
        public void deliver(final StoredTimeout timeout) {
            // unused
        }

        @Override
        public void revoke(final String type, final String key, final long version) {
            // unused
        }
    }
}
