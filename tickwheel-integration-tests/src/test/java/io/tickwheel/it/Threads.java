package io.tickwheel.it;

import java.util.Set;
import java.util.stream.Collectors;

/**
 * Live threads, to prove that a client's shutdown leaves none of its own behind.
 *
 * <p>Threading: stateless.
 */
final class Threads {

    private Threads() {
    }

    static Set<Thread> live() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).collect(Collectors.toSet());
    }

    /** Names of the threads alive now that were not in {@code before}. */
    static Set<String> startedSince(final Set<Thread> before) {
        return live().stream().filter(t -> !before.contains(t)).map(Thread::getName).collect(Collectors.toSet());
    }
}
