package io.tickwheel.testing;

/**
 * Runs an action at each of the deepest frames of a stack that overflows, so that successive
 * calls of the action run out of stack one frame later each time and a real
 * {@link StackOverflowError} strikes at every point of the path the action takes. The thread
 * recurses until its stack overflows, then calls the action at each of the last {@link #WINDOW}
 * levels as it unwinds; at the deepest {@link #PADDED_LEVELS} levels it also calls it through 1
 * to {@link #PADS} small frames more, because the recursion's own frame is the sweep's step and
 * the JIT may make it as big as the whole path under test.
 *
 * <p>The action must catch (and count) the overflows it meets itself, with nothing between the
 * call under test and its catch that could overflow too; overflows in the padding, before the
 * action was called, are caught here and not reported.
 *
 * <p>Threading: one sweep runs on one thread, the one that calls {@link #run()}.
 *
 * <p>Shared with the other modules' tests through tickwheel-core's test jar, which holds only this
 * package.
 */
public final class StackEdge implements Runnable {

    /** How many of the deepest levels call the action on the way up. */
    public static final int WINDOW = 300;
    /** How many of the deepest levels also call it through padding. */
    public static final int PADDED_LEVELS = 4;
    /** The most padding frames. */
    public static final int PADS = 8;
    /** The most times one sweep calls the action. */
    public static final int MAX_CALLS = WINDOW + PADDED_LEVELS * PADS;

    private final Runnable action;
    private int bottom = -1;

    /**
     * A sweep of {@code action}.
     *
     * @param action what runs at each level; it catches its own StackOverflowError
     */
    public StackEdge(final Runnable action) {
        this.action = action;
    }

    /**
     * Runs one sweep on a new thread with a small stack (so it is quick) and waits for it.
     *
     * @param action what runs at each level
     * @param name the thread's name
     * @throws InterruptedException if interrupted while waiting
     */
    public static void sweepOnNewThread(final Runnable action, final String name) throws InterruptedException {
        Thread thread = new Thread(null, new StackEdge(action), name, 256 * 1024);
        thread.setDaemon(true);
        thread.start();
        thread.join();
    }

    @Override
    public void run() {
        deeper(0);
    }

    @SuppressWarnings("InfiniteRecursion") // reason: it recurses until the stack overflows, on purpose
    private void deeper(final int depth) {
        try {
            deeper(depth + 1);
        } catch (StackOverflowError e) {
            if (bottom < 0) {
                bottom = depth;
            }
        }
        if (depth > bottom - WINDOW) {
            action.run();
            if (depth > bottom - PADDED_LEVELS) {
                for (int pad = 1; pad <= PADS; pad++) {
                    try {
                        padded(pad);
                    } catch (StackOverflowError e) {
                        // struck in the padding, before the action was called: nothing to count
                    }
                }
            }
        }
    }

    private void padded(final int pad) {
        if (pad == 0) {
            action.run();
        } else {
            padded(pad - 1);
        }
    }
}
