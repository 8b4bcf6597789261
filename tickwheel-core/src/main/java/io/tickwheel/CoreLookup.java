package io.tickwheel;

import io.tickwheel.internal.TimeoutNode;
import io.tickwheel.internal.TimerCore;
import java.util.function.Function;

/**
 * Gives the internal package the engine behind a public timer (see
 * {@link TimeoutNode#installCoreLookup}); the engine accessors are package-private here.
 *
 * <p>Threading: stateless; installed (idempotently) by the class initialiser of each public timer,
 * which runs before any of its instances, hence any of its timeouts, exists.
 */
final class CoreLookup implements Function<Timer, TimerCore> {

    private static final CoreLookup INSTANCE = new CoreLookup();

    private CoreLookup() {
    }

    static void install() {
        TimeoutNode.installCoreLookup(INSTANCE);
    }

    @Override
    public TimerCore apply(final Timer timer) {
        if (timer instanceof HierarchicalWheelTimer hierarchical) {
            return hierarchical.core();
        }
        if (timer instanceof HashedWheelTimer hashed) {
            return hashed.core();
        }
        return null;
    }
}
