package io.tickwheel.durable;

/**
 * What a {@link DurableTimer} runs when a durable timeout is due: a handler registered under a
 * type name ({@link DurableTimer.Builder#handler}), not an object stored with the timeout, because
 * a task object cannot outlive the process that made it.
 *
 * <p>Delivery is at least once: a crash after the handler returns but before the store records the
 * timeout as done runs it again after recovery, so a handler must be idempotent by
 * {@link DurableTimeout#key()}. Throwing means "retry later": the timer retries with backoff and,
 * after the last attempt, moves the timeout to {@link DurableTimer#failed()}.
 *
 * <p>Threading: called on the {@link DurableTimer}'s executor, never on the wheel's worker thread;
 * one timeout is never run by two threads of one process at once.
 */
@FunctionalInterface
public interface DurableTask {

    /**
     * Handles one due timeout.
     *
     * @param timeout the timeout that is due; its {@link DurableTimeout#attempt()} is 1 on the first run
     * @throws Exception to have the timeout retried with backoff (or moved to the failed set after the
     *                   last attempt)
     */
    void run(DurableTimeout timeout) throws Exception;
}
