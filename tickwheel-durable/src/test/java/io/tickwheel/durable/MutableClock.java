package io.tickwheel.durable;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** The system clock plus an offset a test can jump forward and back. */
final class MutableClock extends Clock {

    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    void jump(final Duration by) {
        offset.updateAndGet(o -> o.plus(by));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(final ZoneId zone) {
        throw new UnsupportedOperationException("UTC only");
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset.get());
    }
}
