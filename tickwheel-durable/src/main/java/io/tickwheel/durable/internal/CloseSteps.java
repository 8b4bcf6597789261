package io.tickwheel.durable.internal;

/**
 * A close made of steps that must each run, whatever the ones before threw: a step skipped leaves
 * its thread running, or its hold on the files, for the JVM's life, and a second close returns at
 * once, so nothing would ever run it.
 *
 * <p>Threading: stateless (a static method); the steps run on the calling thread, in order.
 */
final class CloseSteps {

    private CloseSteps() {
    }

    /**
     * Runs every step in order, then throws the first failure, with the later ones suppressed.
     *
     * @param steps the steps
     */
    static void runAll(final Runnable... steps) {
        Throwable failure = null;
        for (Runnable step : steps) {
            try {
                step.run();
            } catch (Throwable e) {
                if (failure == null) {
                    failure = e;
                } else if (failure != e) {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) { // a checked exception thrown sneakily
            throw new IllegalStateException("closing the journal store failed", failure);
        }
    }
}
