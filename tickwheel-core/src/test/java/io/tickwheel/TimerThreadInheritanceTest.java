package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Timer threads made by tickwheel's own factories start clean: no inheritable thread-local of
 * the thread that happened to create the timer (a request's context), and no context class
 * loader of it (a web application's loader, which the thread would pin for its whole life).
 */
class TimerThreadInheritanceTest {

    private static final InheritableThreadLocal<String> REQUEST = new InheritableThreadLocal<>();
    private static final long PATIENCE_SECONDS = 10;

    /** What a task on the timer's thread saw. */
    private record Seen(String request, ClassLoader loader) {
    }

    /** Creates the timer on a fresh thread that carries a request context and an application loader. */
    private static Seen seenByTaskOfTimerCreatedUnderContext(final Supplier<Timer> make) throws Exception {
        AtomicReference<Timer> created = new AtomicReference<>();
        try (URLClassLoader appLoader = new URLClassLoader("webapp", new URL[0],
                TimerThreadInheritanceTest.class.getClassLoader())) {
            Thread creator = new Thread(() -> {
                REQUEST.set("request-42");
                Thread.currentThread().setContextClassLoader(appLoader);
                created.set(make.get());
            }, "creator-with-context");
            creator.start();
            creator.join(TimeUnit.SECONDS.toMillis(PATIENCE_SECONDS));
            assertThat(creator.isAlive()).as("creator finished").isFalse();
            Timer timer = created.get();
            try {
                CompletableFuture<Seen> seen = new CompletableFuture<>();
                timer.newTimeout(t -> seen.complete(new Seen(REQUEST.get(),
                        Thread.currentThread().getContextClassLoader())), 1, TimeUnit.MILLISECONDS);
                return seen.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
            } finally {
                timer.stop();
            }
        }
    }

    static List<Supplier<Timer>> defaultFactoryTimers() {
        return List.of(
                () -> HierarchicalWheelTimer.builder().tickDuration(Duration.ofMillis(1)).build(),
                () -> new HashedWheelTimer(10, TimeUnit.MILLISECONDS),
                () -> HashedWheelTimer.builder().tickDuration(Duration.ofMillis(10)).build());
    }

    @Test
    void defaultThreadFactories_timerCreatedUnderRequestContext_threadInheritsNeither() throws Exception {
        for (Supplier<Timer> make : defaultFactoryTimers()) {
            Seen seen = seenByTaskOfTimerCreatedUnderContext(make);

            assertThat(seen.request()).as("inheritable thread-local on the timer thread").isNull();
            assertThat(seen.loader()).as("context class loader of the timer thread")
                    .isSameAs(ClassLoader.getSystemClassLoader());
        }
    }

    @Test
    void sharedTimer_taskSeesNoCallerContext() throws Exception {
        REQUEST.set("caller-context");
        try {
            CompletableFuture<Seen> seen = new CompletableFuture<>();
            Timers.shared().newTimeout(t -> seen.complete(new Seen(REQUEST.get(),
                    Thread.currentThread().getContextClassLoader())), 1, TimeUnit.MILLISECONDS);
            Seen result = seen.get(PATIENCE_SECONDS, TimeUnit.SECONDS);

            assertThat(result.request()).isNull();
            assertThat(result.loader()).isSameAs(ClassLoader.getSystemClassLoader());
        } finally {
            REQUEST.remove();
        }
    }
}
