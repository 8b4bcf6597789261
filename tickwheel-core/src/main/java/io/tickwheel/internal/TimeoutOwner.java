package io.tickwheel.internal;

import io.tickwheel.Timeout;
import io.tickwheel.Timer;

/**
 * What a {@link TimeoutNode} needs from the timer that made it: the public timer to hand out, and
 * the engine to tell about a cancel. It sits below the engine, so the node (a pure structure)
 * never names the engine; the engine implements it ({@code TimerCore.Binding}) with one small
 * object per timer that holds both the public timer and the engine. Nodes keep that one
 * reference, so a node stays 32 bytes and a pending timeout keeps its public timer reachable.
 *
 * <p>Threading: implementations must be thread-safe; cancels call in from any thread.
 */
public interface TimeoutOwner {

    /**
     * Returns the public timer, as {@link io.tickwheel.Timeout#timer()} does.
     *
     * @return the timer
     */
    Timer timer();

    /**
     * Called once by the thread whose cancel CAS succeeded: count it (which may wake the worker
     * for a purge) and mark its queue slot if it is still queued.
     *
     * @param node the cancelled timeout
     * @param place where the hand-off queue put it, as the cancel CAS saw it; 0 if unknown
     */
    void onCancelled(Timeout node, int place);

    /**
     * Returns the logger task failures are reported to.
     *
     * @return the timer's logger
     */
    System.Logger logger();

    /**
     * Returns the timer's clock reading, for {@code toString()}.
     *
     * @return nanoseconds on the timer's clock
     */
    long nanoTime();
}
