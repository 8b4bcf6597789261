package io.tickwheel.durable;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * A durable timeout as a {@link TimerStore} hands it to its {@link DurableTimer}, and as the timer
 * hands it back when it records the outcome of a run.
 *
 * <p>The {@link #version()} identifies one incarnation of a {@code (type, key)}: the store gives
 * every accepted {@code schedule} (a replacing one included) and every {@code retry} a new version,
 * greater than any earlier one of the same key. {@link TimerStore#claim}, {@code done}, {@code retry}
 * and {@code fail} act only if the stored timeout still has this version, so a copy held in a wheel
 * after it was replaced or cancelled, here or in another process, can never fire or overwrite the
 * newer one.
 *
 * <p>Threading: immutable (the payload is copied in and out).
 */
public final class StoredTimeout implements DurableTimeout {

    private final String type;
    private final String key;
    private final byte[] payload;
    private final Instant deadline;
    private final int attempt;
    private final long version;

    /**
     * Creates a stored timeout; stores call this, users never need to.
     *
     * @param type     the handler's name
     * @param key      the key, unique within the type
     * @param payload  the payload (copied)
     * @param deadline when it is due
     * @param attempt  1 before the first run, then one more for each recorded retry
     * @param version  this incarnation's version, assigned by the store
     */
    public StoredTimeout(final String type, final String key, final byte[] payload, final Instant deadline,
            final int attempt, final long version) {
        this.type = Objects.requireNonNull(type, "type");
        this.key = Objects.requireNonNull(key, "key");
        this.payload = Objects.requireNonNull(payload, "payload").clone();
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1, was " + attempt);
        }
        this.attempt = attempt;
        this.version = version;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    /**
     * The payload's length, without copying it.
     *
     * @return the number of payload bytes
     */
    public int payloadLength() {
        return payload.length;
    }

    @Override
    public Instant deadline() {
        return deadline;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    /**
     * This incarnation's version (see the class comment).
     *
     * @return the version assigned by the store
     */
    public long version() {
        return version;
    }

    /**
     * Whether this is the same incarnation of the same timeout as {@code other}.
     *
     * @param other another stored timeout
     * @return true if type, key and version are equal
     */
    public boolean sameIncarnation(final StoredTimeout other) {
        return version == other.version && type.equals(other.type) && key.equals(other.key);
    }

    @Override
    public boolean equals(final Object o) {
        if (this == o) {
            return true;
        }
        return o instanceof StoredTimeout that && sameIncarnation(that) && attempt == that.attempt
                && deadline.equals(that.deadline) && Arrays.equals(payload, that.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, key, version);
    }

    @Override
    public String toString() {
        return "StoredTimeout(" + type + '/' + key + ", deadline " + deadline + ", attempt " + attempt
                + ", version " + version + ", " + payload.length + " payload bytes)";
    }
}
