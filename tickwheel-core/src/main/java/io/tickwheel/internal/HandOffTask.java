package io.tickwheel.internal;

import io.tickwheel.TimerTask;

/**
 * A timer task that tickwheel creates itself and whose {@code run} only hands work on (to the
 * workers of a {@code WheelScheduledExecutorService}, or to the executor that completes a
 * {@code TimeoutFutures} future): it runs no user code, never blocks, and ends quickly. If the
 * timer's task executor refuses it, the worker runs it itself rather than lose it, so that a
 * future built on the timer still completes (see {@link Worker}).
 *
 * <p>Threading: a marker; the implementations say their own.
 */
public interface HandOffTask extends TimerTask {
}
