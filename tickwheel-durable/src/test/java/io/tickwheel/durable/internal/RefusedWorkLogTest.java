package io.tickwheel.durable.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tickwheel.durable.WarningLog;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What {@link RefusedWork} logs: each kind of failure once while its thread has work, so a refusal
 * repeated at every tick does not flood the log, while a different failure arriving meanwhile (the
 * clock throwing while the wheel refuses) is still told; once the thread ran dry, a kind is told again.
 */
class RefusedWorkLogTest {

    private WarningLog log;
    /** The exception of each WARNING record. */
    private List<Throwable> warnings;

    @BeforeEach
    void listen() {
        log = WarningLog.on(RefusedWork.class.getName(), t -> true);
        warnings = log.thrown();
    }

    @AfterEach
    void stopListening() {
        log.close();
    }

    @Test
    void whileTheThreadHasWork_eachKindOfFailureIsLoggedOnce() {
        // A thread that never runs: the first refusal's run goes on for the whole test.
        RefusedWork work = new RefusedWork("t", loop -> new Thread(loop, "never-started"));
        RejectedExecutionException wheel = new RejectedExecutionException("the wheel refused");
        work.add(() -> { }, wheel);
        work.add(() -> { }, new RejectedExecutionException("the wheel refused again"));
        IllegalStateException clock = new IllegalStateException("the clock threw");
        work.add(() -> { }, clock);
        work.add(() -> { }, new IllegalStateException("the clock threw again"));
        work.add(() -> { }, null);

        assertThat(warnings).containsExactly(wheel, clock);
        assertThat(work.waiting()).isEqualTo(5);
    }

    @Test
    void onceTheThreadRanDry_theSameKindIsLoggedAgain() {
        AtomicInteger ran = new AtomicInteger();
        RefusedWork work = new RefusedWork("refused-work-log-test");
        work.add(ran::incrementAndGet, new RejectedExecutionException("first run"));
        await().atMost(Duration.ofSeconds(10)).until(() -> ran.get() == 1 && work.waiting() == 0);
        // The thread ends after its last round; until then an add joins its run.
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            int before = warnings.size();
            work.add(ran::incrementAndGet, new RejectedExecutionException("a later run"));
            return warnings.size() > before;
        });
        assertThat(warnings).hasSizeGreaterThanOrEqualTo(2);
        assertThat(warnings.get(warnings.size() - 1)).hasMessage("a later run");
        work.close();
    }
}
