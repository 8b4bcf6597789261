package io.tickwheel;

import static io.tickwheel.BadInputChecks.returns;
import static io.tickwheel.BadInputRow.accepts;
import static io.tickwheel.BadInputRow.call;
import static io.tickwheel.BadInputRow.rejects;
import static io.tickwheel.BadInputRow.rejectsInState;
import static io.tickwheel.BadInputTable.DAYS;
import static io.tickwheel.BadInputTable.MS;
import static io.tickwheel.BadInputTable.NS;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The rows of {@code docs/BAD-INPUT.md} for {@link WheelScheduledExecutorService}, the futures it
 * returns, and {@link TimeoutFutures}, in the doc's order (part of {@link BadInputTable#all()}).
 */
final class BadInputExecutorTable {

    private static final String SES = "WheelScheduledExecutorService#";
    private static final String SES_NEW = "WheelScheduledExecutorService(Timer,ExecutorService)";
    private static final String RUNNABLE = "schedule(Runnable,long,TimeUnit)";
    private static final String CALLABLE = "schedule(Callable,long,TimeUnit)";
    private static final String RATE = "scheduleAtFixedRate(Runnable,long,long,TimeUnit)";
    private static final String DELAY = "scheduleWithFixedDelay(Runnable,long,long,TimeUnit)";
    private static final String ALL = "invokeAll(Collection)";
    private static final String ALL_TIMED = "invokeAll(Collection,long,TimeUnit)";
    private static final String ANY = "invokeAny(Collection)";
    private static final String ANY_TIMED = "invokeAny(Collection,long,TimeUnit)";
    private static final String AWAIT = "awaitTermination(long,TimeUnit)";
    private static final String FUTURE = "ScheduledFuture#";
    private static final String OR = "TimeoutFutures#orTimeout(CompletableFuture,long,TimeUnit,Timer)";
    private static final String ON = "TimeoutFutures#completeOnTimeout(CompletableFuture,Object,long,TimeUnit,Timer)";
    private static final String OR_EX = "TimeoutFutures#orTimeout(CompletableFuture,long,TimeUnit,Timer,Executor)";
    private static final String ON_EX =
            "TimeoutFutures#completeOnTimeout(CompletableFuture,Object,long,TimeUnit,Timer,Executor)";
    private static final Executor EX = Runnable::run;
    private static final Runnable RUN = BadInputExecutorTable::nothing;
    private static final Callable<String> A = () -> "a";
    private static final Class<IllegalArgumentException> IAE = IllegalArgumentException.class;
    private static final Class<NullPointerException> NPE = NullPointerException.class;
    private static final Class<RejectedExecutionException> REE = RejectedExecutionException.class;

    private BadInputExecutorTable() {
    }

    @SuppressWarnings("FutureReturnValueIgnored") // a rejected call returns nothing to ignore
    static List<BadInputRow> executor() {
        Runnable noRunnable = null;
        Callable<String> noCallable = null;
        return List.of(
                rejects("executor.timer.null", NPE, "timer",
                        call(SES_NEW, f -> new WheelScheduledExecutorService(null, f.workers))),
                rejects("executor.workers.null", NPE, "workers",
                        call(SES_NEW, f -> new WheelScheduledExecutorService(f.hierarchical, null))),
                rejects("executor.command.null", NPE, "command",
                        call(SES + RUNNABLE, f -> f.executor.schedule(noRunnable, 1, MS)),
                        call(SES + RATE, f -> f.executor.scheduleAtFixedRate(null, 1, 1, MS)),
                        call(SES + DELAY, f -> f.executor.scheduleWithFixedDelay(null, 1, 1, MS)),
                        call(SES + "execute(Runnable)", f -> run(() -> f.executor.execute(null)))),
                rejects("executor.callable.null", NPE, "callable",
                        call(SES + CALLABLE, f -> f.executor.schedule(noCallable, 1, MS))),
                rejects("executor.task.null", NPE, "task",
                        call(SES + "submit(Runnable)", f -> f.executor.submit(noRunnable)),
                        call(SES + "submit(Runnable,Object)", f -> f.executor.submit(noRunnable, "result")),
                        call(SES + "submit(Callable)", f -> f.executor.submit(noCallable))),
                rejects("executor.unit.null", NPE, "unit",
                        call(SES + RUNNABLE, f -> f.executor.schedule(RUN, 1, null)),
                        call(SES + CALLABLE, f -> f.executor.schedule(A, 1, null)),
                        call(SES + RATE, f -> f.executor.scheduleAtFixedRate(RUN, 1, 1, null)),
                        call(SES + DELAY, f -> f.executor.scheduleWithFixedDelay(RUN, 1, 1, null)),
                        call(SES + ALL_TIMED, f -> f.executor.invokeAll(List.of(A), 1, null)),
                        call(SES + ANY_TIMED, f -> f.executor.invokeAny(List.of(A), 1, null)),
                        call(SES + AWAIT, f -> f.executor.awaitTermination(1, null))),
                rejects("executor.period.notPositive", IAE, "period",
                        call(SES + RATE, f -> f.executor.scheduleAtFixedRate(RUN, 1, 0, MS)),
                        call(SES + RATE, f -> f.executor.scheduleAtFixedRate(RUN, 1, Long.MIN_VALUE, DAYS))),
                rejects("executor.fixedDelay.notPositive", IAE, "delay",
                        call(SES + DELAY, f -> f.executor.scheduleWithFixedDelay(RUN, 1, 0, MS)),
                        call(SES + DELAY, f -> f.executor.scheduleWithFixedDelay(RUN, 1, -1, NS))),
                accepts("executor.delay.huge", BadInputChecks.FAR_TASK,
                        call(SES + RUNNABLE, f -> f.executor.schedule(RUN, Long.MAX_VALUE, DAYS)),
                        call(SES + CALLABLE, f -> f.executor.schedule(A, Long.MAX_VALUE, NS)),
                        call(SES + RATE, f -> f.executor.scheduleAtFixedRate(RUN, Long.MAX_VALUE, 1, DAYS)),
                        call(SES + DELAY, f -> f.executor.scheduleWithFixedDelay(RUN, Long.MAX_VALUE, 1, DAYS))),
                accepts("executor.delay.notPositive", BadInputChecks.RUNS_NOW,
                        call(SES + RUNNABLE, f -> f.executor.schedule(RUN, 0, MS)),
                        call(SES + CALLABLE, f -> f.executor.schedule(A, -1, MS)),
                        call(SES + RUNNABLE, f -> f.executor.schedule(RUN, Long.MIN_VALUE, DAYS))),
                accepts("executor.period.huge", BadInputChecks.RAN_ONCE_NEXT_FAR,
                        call(SES + RATE, f -> f.executor.scheduleAtFixedRate(RUN, 0, Long.MAX_VALUE, DAYS)),
                        call(SES + DELAY, f -> f.executor.scheduleWithFixedDelay(RUN, -1, Long.MAX_VALUE, NS))));
    }

    /** invokeAll, invokeAny, awaitTermination, and the executor's state. */
    @SuppressWarnings("FutureReturnValueIgnored") // a rejected call returns nothing to ignore
    static List<BadInputRow> executorBulk() {
        List<Callable<String>> noTasks = null;
        List<Callable<String>> withNull = Arrays.asList(A, null);
        return List.of(
                rejects("executor.tasks.null", NPE, "tasks",
                        call(SES + ALL, f -> f.executor.invokeAll(noTasks)),
                        call(SES + ALL_TIMED, f -> f.executor.invokeAll(noTasks, 1, MS)),
                        call(SES + ANY, f -> f.executor.invokeAny(noTasks)),
                        call(SES + ANY_TIMED, f -> f.executor.invokeAny(noTasks, 1, MS))),
                rejects("executor.tasks.nullElement", NPE, "tasks",
                        call(SES + ALL, f -> f.executor.invokeAll(withNull)),
                        call(SES + ALL_TIMED, f -> f.executor.invokeAll(withNull, 1, MS)),
                        call(SES + ANY, f -> f.executor.invokeAny(withNull)),
                        call(SES + ANY_TIMED, f -> f.executor.invokeAny(withNull, 1, MS))),
                rejects("executor.tasks.emptyForInvokeAny", IAE, "tasks",
                        call(SES + ANY, f -> f.executor.invokeAny(List.<Callable<String>>of())),
                        call(SES + ANY_TIMED, f -> f.executor.invokeAny(List.<Callable<String>>of(), 1, MS))),
                accepts("executor.tasks.emptyForInvokeAll", returns(List.of()),
                        call(SES + ALL, f -> f.executor.invokeAll(List.<Callable<String>>of())),
                        call(SES + ALL_TIMED, f -> f.executor.invokeAll(List.<Callable<String>>of(), 1, MS))),
                accepts("executor.timeout.huge", returns("a"),
                        call(SES + ALL_TIMED, f -> f.executor.invokeAll(List.of(A), Long.MAX_VALUE, DAYS).get(0)),
                        call(SES + ANY_TIMED, f -> f.executor.invokeAny(List.of(A), Long.MAX_VALUE, DAYS))),
                accepts("executor.awaitTermination.huge", returns(true), call(SES + AWAIT, f -> {
                    WheelScheduledExecutorService idle = new WheelScheduledExecutorService(f.hierarchical, f.workers);
                    idle.shutdown();
                    return idle.awaitTermination(Long.MAX_VALUE, DAYS);
                })),
                accepts("executor.awaitTermination.notPositive", returns(false),
                        call(SES + AWAIT, f -> f.executor.awaitTermination(0, MS)),
                        call(SES + AWAIT, f -> f.executor.awaitTermination(Long.MIN_VALUE, DAYS))),
                accepts("executor.result.null", returns(null),
                        call(SES + "submit(Runnable,Object)", f -> f.executor.submit(RUN, null))),
                rejectsInState("executor.state.timerStopped", REE, "stopped", call(SES_NEW,
                        f -> new WheelScheduledExecutorService(f.stopped, f.workers).schedule(RUN, 1, MS))),
                rejectsInState("executor.state.shutDown", REE, "shut down",
                        call(SES + RUNNABLE, f -> f.shutDown.schedule(RUN, 1, MS)),
                        call(SES + "submit(Callable)", f -> f.shutDown.submit(A)),
                        call(SES + ALL, f -> f.shutDown.invokeAll(List.of(A)))));
    }

    @SuppressWarnings("FutureReturnValueIgnored") // each action returns its future to the row's check
    static List<BadInputRow> futures() {
        CompletableFuture<String> noFuture = null;
        return List.of(
                rejects("future.unit.null", NPE, "unit",
                        call(FUTURE + "getDelay(TimeUnit)", f -> f.farTask.getDelay(null)),
                        call(FUTURE + "get(long,TimeUnit)", f -> f.farTask.get(1, null))),
                rejects("future.other.null", NPE, "other",
                        call(FUTURE + "compareTo(Object)", f -> f.farTask.compareTo(null))),
                accepts("future.timeout.huge", returns("x"), call(FUTURE + "get(long,TimeUnit)",
                        f -> f.executor.schedule(() -> "x", 0, MS).get(Long.MAX_VALUE, DAYS))),
                accepts("future.mayInterruptIfRunning.any", returns(true),
                        call(FUTURE + "cancel(boolean)", f -> f.executor.schedule(A, 1, TimeUnit.HOURS).cancel(true)),
                        call(FUTURE + "cancel(boolean)", f -> f.executor.schedule(A, 1, TimeUnit.HOURS).cancel(false))),
                rejects("futures.f.null", NPE, "f",
                        call(OR, f -> TimeoutFutures.orTimeout(noFuture, 1, MS, f.hierarchical)),
                        call(ON, f -> TimeoutFutures.completeOnTimeout(noFuture, "v", 1, MS, f.hierarchical)),
                        call(OR_EX, f -> TimeoutFutures.orTimeout(noFuture, 1, MS, f.hierarchical, EX)),
                        call(ON_EX, f -> TimeoutFutures.completeOnTimeout(noFuture, "v", 1, MS, f.hierarchical, EX))),
                rejects("futures.unit.null", NPE, "unit",
                        call(OR, f -> TimeoutFutures.orTimeout(f.future, 1, null, f.idle)),
                        call(ON, f -> TimeoutFutures.completeOnTimeout(f.future, "v", 1, null, f.hierarchical)),
                        call(OR_EX, f -> TimeoutFutures.orTimeout(f.future, 1, null, f.idle, EX)),
                        call(ON_EX, f -> TimeoutFutures.completeOnTimeout(f.future, "v", 1, null, f.hierarchical, EX))),
                rejects("futures.timer.null", NPE, "timer",
                        call(OR, f -> TimeoutFutures.orTimeout(f.future, 1, MS, null)),
                        call(ON, f -> TimeoutFutures.completeOnTimeout(f.future, "v", 1, MS, null)),
                        call(OR_EX, f -> TimeoutFutures.orTimeout(f.future, 1, MS, null, EX)),
                        call(ON_EX, f -> TimeoutFutures.completeOnTimeout(f.future, "v", 1, MS, null, EX))),
                rejects("futures.executor.null", NPE, "executor",
                        call(OR_EX, f -> TimeoutFutures.orTimeout(f.future, 1, MS, f.idle, null)),
                        call(ON_EX, f -> TimeoutFutures.completeOnTimeout(f.future, "v", 1, MS, f.hierarchical, null))),
                accepts("futures.value.null", returns(null), call(ON,
                        f -> TimeoutFutures.completeOnTimeout(new CompletableFuture<String>(), null, 1, MS,
                                f.hierarchical))),
                accepts("futures.delay.huge", BadInputChecks.FUTURE_WAITS,
                        call(OR, f -> TimeoutFutures.orTimeout(new CompletableFuture<String>(), Long.MAX_VALUE, DAYS,
                                f.hierarchical)),
                        call(ON, f -> TimeoutFutures.completeOnTimeout(new CompletableFuture<String>(), "v",
                                Long.MAX_VALUE, NS, f.hierarchical))),
                accepts("futures.orTimeout.delay.notPositive", BadInputChecks.TIMES_OUT,
                        call(OR, f -> TimeoutFutures.orTimeout(new CompletableFuture<String>(), 0, MS, f.hierarchical)),
                        call(OR, f -> TimeoutFutures.orTimeout(new CompletableFuture<String>(), Long.MIN_VALUE, DAYS,
                                f.hierarchical))),
                accepts("futures.completeOnTimeout.delay.notPositive", returns("v"),
                        call(ON, f -> TimeoutFutures.completeOnTimeout(new CompletableFuture<String>(), "v", -1, NS,
                                f.hierarchical))),
                accepts("futures.f.done", BadInputChecks.UNTOUCHED,
                        call(OR, f -> TimeoutFutures.orTimeout(CompletableFuture.completedFuture("done before"), 1,
                                MS, f.hierarchical)),
                        call(ON, f -> TimeoutFutures.completeOnTimeout(CompletableFuture.completedFuture("done before"),
                                "v", 1, MS, f.hierarchical))),
                rejectsInState("futures.state.timerStopped", IllegalStateException.class, "stopped",
                        call(OR, f -> TimeoutFutures.orTimeout(f.future, 1, MS, f.stopped)),
                        call(ON, f -> TimeoutFutures.completeOnTimeout(f.future, "v", 1, MS, f.stopped))),
                rejectsInState("futures.state.atPendingLimit", REE, "pending timeouts",
                        call(OR, f -> TimeoutFutures.orTimeout(f.future, 1, MS, f.limited))));
    }

    private static void nothing() {
        // the task body of every executor row: what matters is when, or whether, it runs
    }

    /** Adapts a void call to an {@link BadInputRow.Action}. */
    private static Object run(final Runnable call) {
        call.run();
        return null;
    }
}
