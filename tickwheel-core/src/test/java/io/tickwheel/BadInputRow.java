package io.tickwheel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One row of {@code docs/BAD-INPUT.md}: a key (the doc's first column), the calls that feed the
 * row's bad input to each method it applies to, and the outcome: either an exception of exactly
 * {@link #thrown} whose message starts with the argument's name {@link #names} (or, for an
 * argument that is fine in itself but not in the receiver's state, mentions that state), or
 * acceptance, verified by {@link #check}. "Starts with" rules out the JVM's helpful
 * NullPointerException messages, which mention a parameter's name only by accident of debug info.
 *
 * <p>Threading: immutable.
 *
 * @param key the doc table's key
 * @param thrown the exception every call throws, or null if the input is accepted
 * @param names the argument's name (or the state's word), or null if accepted
 * @param message what the message must match: {@code names} at its start, or the state's word anywhere
 * @param check what an accepted call's result must satisfy, or null if rejected
 * @param calls the calls, each labelled with the public signature it exercises
 */
record BadInputRow(String key, Class<? extends Exception> thrown, String names, Pattern message, Check check,
        List<Call> calls) {

    /** A call of one public method or constructor with the row's bad input. */
    @FunctionalInterface
    interface Action {
        Object run(BadInputFixture fixture) throws Exception;
    }

    /** Verifies what an accepted call returned (a timer, timeout, future...). */
    @FunctionalInterface
    interface Check {
        void verify(BadInputFixture fixture, BadInputFixture.State before, Object result) throws Exception;
    }

    /**
     * A call, labelled with the signature it exercises as {@link BadInputTableTest} spells it:
     * {@code Type(ParamTypes)} for a constructor, {@code Type#name(ParamTypes)} for a method.
     */
    record Call(String signature, Action action) {
    }

    /** Bad input: an exception whose message starts with the argument's name. */
    static BadInputRow rejects(final String key, final Class<? extends Exception> thrown, final String argument,
            final Call... calls) {
        return new BadInputRow(key, thrown, argument, Pattern.compile("^" + Pattern.quote(argument) + "\\b"), null,
                List.of(calls));
    }

    /** An argument valid in itself but not in the receiver's state: a message that mentions the state. */
    static BadInputRow rejectsInState(final String key, final Class<? extends Exception> thrown, final String state,
            final Call... calls) {
        return new BadInputRow(key, thrown, state, Pattern.compile("\\b" + Pattern.quote(state) + "\\b"), null,
                List.of(calls));
    }

    static BadInputRow accepts(final String key, final Check check, final Call... calls) {
        return new BadInputRow(key, null, null, null, check, List.of(calls));
    }

    boolean isStateRow() {
        return thrown != null && !message.pattern().startsWith("^");
    }

    static Call call(final String signature, final Action action) {
        return new Call(signature, action);
    }

    /** This row with more calls. */
    BadInputRow and(final Call... more) {
        List<Call> all = new ArrayList<>(calls);
        all.addAll(Arrays.asList(more));
        return new BadInputRow(key, thrown, names, message, check, List.copyOf(all));
    }

    @Override
    public String toString() {
        return key;
    }

    /** HashedWheelTimer's constructor arguments, all valid until {@link #with} spoils some. */
    record HashedArgs(ThreadFactory threadFactory, long tickDuration, TimeUnit unit, int ticksPerWheel,
            boolean leakDetection, long maxPendingTimeouts, Executor taskExecutor) {

        static HashedArgs valid(final BadInputFixture fixture) {
            return new HashedArgs(fixture.factory, 1, TimeUnit.MILLISECONDS, 8, true, -1, Runnable::run);
        }

        HashedArgs with(final String name, final Object value) {
            return switch (name) {
                case "threadFactory" -> new HashedArgs((ThreadFactory) value, tickDuration, unit, ticksPerWheel,
                        leakDetection, maxPendingTimeouts, taskExecutor);
                case "tickDuration" -> new HashedArgs(threadFactory, (Long) value, unit, ticksPerWheel,
                        leakDetection, maxPendingTimeouts, taskExecutor);
                case "unit" -> new HashedArgs(threadFactory, tickDuration, (TimeUnit) value, ticksPerWheel,
                        leakDetection, maxPendingTimeouts, taskExecutor);
                case "ticksPerWheel" -> new HashedArgs(threadFactory, tickDuration, unit, (Integer) value,
                        leakDetection, maxPendingTimeouts, taskExecutor);
                case "leakDetection" -> new HashedArgs(threadFactory, tickDuration, unit, ticksPerWheel,
                        (Boolean) value, maxPendingTimeouts, taskExecutor);
                case "maxPendingTimeouts" -> new HashedArgs(threadFactory, tickDuration, unit, ticksPerWheel,
                        leakDetection, (Long) value, taskExecutor);
                case "taskExecutor" -> new HashedArgs(threadFactory, tickDuration, unit, ticksPerWheel,
                        leakDetection, maxPendingTimeouts, (Executor) value);
                default -> throw new IllegalArgumentException("no such argument: " + name);
            };
        }
    }

    /** One public HashedWheelTimer constructor, with the names of the arguments it takes. */
    private record Overload(String signature, List<String> takes, Function<HashedArgs, HashedWheelTimer> make) {
    }

    private static final List<Overload> HASHED_CONSTRUCTORS = List.of(
            new Overload("HashedWheelTimer(long,TimeUnit)", List.of("tickDuration", "unit"),
                    a -> new HashedWheelTimer(a.tickDuration(), a.unit())),
            new Overload("HashedWheelTimer(long,TimeUnit,int)", List.of("tickDuration", "unit", "ticksPerWheel"),
                    a -> new HashedWheelTimer(a.tickDuration(), a.unit(), a.ticksPerWheel())),
            new Overload("HashedWheelTimer(ThreadFactory)", List.of("threadFactory"),
                    a -> new HashedWheelTimer(a.threadFactory())),
            new Overload("HashedWheelTimer(ThreadFactory,long,TimeUnit)",
                    List.of("threadFactory", "tickDuration", "unit"),
                    a -> new HashedWheelTimer(a.threadFactory(), a.tickDuration(), a.unit())),
            new Overload("HashedWheelTimer(ThreadFactory,long,TimeUnit,int)",
                    List.of("threadFactory", "tickDuration", "unit", "ticksPerWheel"),
                    a -> new HashedWheelTimer(a.threadFactory(), a.tickDuration(), a.unit(), a.ticksPerWheel())),
            new Overload("HashedWheelTimer(ThreadFactory,long,TimeUnit,int,boolean)",
                    List.of("threadFactory", "tickDuration", "unit", "ticksPerWheel", "leakDetection"),
                    a -> new HashedWheelTimer(a.threadFactory(), a.tickDuration(), a.unit(), a.ticksPerWheel(),
                            a.leakDetection())),
            new Overload("HashedWheelTimer(ThreadFactory,long,TimeUnit,int,boolean,long)",
                    List.of("threadFactory", "tickDuration", "unit", "ticksPerWheel", "leakDetection",
                            "maxPendingTimeouts"),
                    a -> new HashedWheelTimer(a.threadFactory(), a.tickDuration(), a.unit(), a.ticksPerWheel(),
                            a.leakDetection(), a.maxPendingTimeouts())),
            new Overload("HashedWheelTimer(ThreadFactory,long,TimeUnit,int,boolean,long,Executor)",
                    List.of("threadFactory", "tickDuration", "unit", "ticksPerWheel", "leakDetection",
                            "maxPendingTimeouts", "taskExecutor"),
                    a -> new HashedWheelTimer(a.threadFactory(), a.tickDuration(), a.unit(), a.ticksPerWheel(),
                            a.leakDetection(), a.maxPendingTimeouts(), a.taskExecutor())));

    /**
     * A call of every public HashedWheelTimer constructor that takes all the named arguments, with
     * them set to the given values and every other argument valid.
     *
     * @param namesAndValues argument name, value, name, value...
     * @return one call per such constructor
     */
    static Call[] hashedConstructors(final Object... namesAndValues) {
        List<Call> calls = new ArrayList<>();
        for (Overload overload : HASHED_CONSTRUCTORS) {
            boolean takesAll = true;
            for (int i = 0; i < namesAndValues.length; i += 2) {
                takesAll &= overload.takes().contains((String) namesAndValues[i]);
            }
            if (takesAll) {
                calls.add(call(overload.signature(), fixture -> {
                    HashedArgs args = HashedArgs.valid(fixture);
                    for (int i = 0; i < namesAndValues.length; i += 2) {
                        args = args.with((String) namesAndValues[i], namesAndValues[i + 1]);
                    }
                    return overload.make().apply(args);
                }));
            }
        }
        return calls.toArray(new Call[0]);
    }

    /** The same calls, each run while {@link BadInputFixture#warnings} captures what it logs. */
    static Call[] warned(final Call... calls) {
        return Arrays.stream(calls).map(c -> call(c.signature(), fixture -> fixture.capturingWarnings(
                () -> c.action().run(fixture)))).toArray(Call[]::new);
    }
}
