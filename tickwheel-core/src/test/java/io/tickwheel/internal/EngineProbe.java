package io.tickwheel.internal;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a failed test prints about an engine it expected to make progress: the hand-off's cells,
 * the lost-wake flag and where the worker thread is, so a failure seen once in CI says why.
 * Reads private state by reflection; for failure messages only, never for assertions.
 */
public final class EngineProbe {

    private EngineProbe() {
    }

    /**
     * Describes {@code core}'s hand-off and worker as of now (racy snapshot).
     *
     * @param core the engine
     * @return one line per part
     */
    public static String describe(final TimerCore core) {
        StringBuilder out = new StringBuilder();
        try {
            HandOff handOff = core.handOff;
            long origin = (long) field(TimerCore.class, "originNanos").get(core);
            PaddedLongs cells = (PaddedLongs) field(HandOff.class, "cells").get(handOff);
            out.append("elapsed now ").append(System.nanoTime() - origin)
                    .append(", QUEUED_MIN ").append(cells.getVolatile((int) constant("QUEUED_MIN")))
                    .append(", PARK_DEADLINE ").append(cells.getVolatile((int) constant("PARK_DEADLINE")))
                    .append(", wakeLost ").append(field(TimerCore.class, "wakeLost").get(core))
                    .append(", backlog ").append(handOff.backlog())
                    .append(", scheduled ").append(handOff.scheduledCount())
                    .append(", retired ").append(handOff.retiredCount())
                    .append(", cancelled ").append(handOff.cancelledCount()).append('\n');
        } catch (ReflectiveOperationException | RuntimeException e) {
            out.append("(cells unreadable: ").append(e).append(")\n");
        }
        Thread worker = core.workerThread();
        out.append("worker ").append(worker.getName()).append(' ').append(worker.getState()).append(":\n    ")
                .append(Arrays.stream(worker.getStackTrace()).map(String::valueOf)
                        .collect(Collectors.joining("\n    ")));
        return out.toString();
    }

    private static Field field(final Class<?> type, final String name) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }

    private static Object constant(final String name) throws ReflectiveOperationException {
        return field(HandOff.class, name).get(null);
    }
}
