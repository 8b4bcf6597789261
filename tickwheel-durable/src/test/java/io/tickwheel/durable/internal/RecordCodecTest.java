package io.tickwheel.durable.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.durable.StoredTimeout;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The pure record codec: round trips, and what it calls torn or corrupt. */
class RecordCodecTest {

    @Test
    void timeout_roundTrips_withNanosAndUnicode() {
        StoredTimeout t = new StoredTimeout("typé", "kéy-✓", new byte[] {1, 2, 3}, Instant.ofEpochSecond(-5, 123),
                3, 42);
        ByteBuffer buf = RecordCodec.buffer(256);
        int len = RecordCodec.putTimeout(buf, t, RecordCodec.utf8(t.type()), RecordCodec.utf8(t.key()), null);
        assertThat(len).isEqualTo(RecordCodec.scheduleSize(RecordCodec.utf8(t.type()), RecordCodec.utf8(t.key()), 3));
        buf.flip();
        RecordView v = new RecordView();
        assertThat(RecordCodec.read(buf, 0, v)).isEqualTo(RecordCodec.Status.OK);
        assertThat(RecordCodec.toTimeout(v)).isEqualTo(t);
        assertThat(v.kind()).isEqualTo(RecordCodec.SCHEDULE);
        assertThat(v.hash1()).isEqualTo(KeyHash.hash(RecordCodec.utf8(t.type()), RecordCodec.utf8(t.key()),
                KeyHash.SEED1));
        assertThat(v.deadlineMillis()).isEqualTo(-5000);
    }

    @Test
    void failedAndMarkers_roundTrip() {
        StoredTimeout t = new StoredTimeout("a", "b", new byte[0], Instant.EPOCH, 1, 7);
        ByteBuffer buf = RecordCodec.buffer(256);
        RecordCodec.putTimeout(buf, t, RecordCodec.utf8("a"), RecordCodec.utf8("b"), RecordCodec.utf8("boom"));
        int second = buf.position();
        RecordCodec.putMarker(buf, RecordCodec.CANCEL, 7, RecordCodec.utf8("a"), RecordCodec.utf8("b"));
        buf.flip();
        RecordView v = new RecordView();
        assertThat(RecordCodec.read(buf, 0, v)).isEqualTo(RecordCodec.Status.OK);
        assertThat(v.kind()).isEqualTo(RecordCodec.FAILED);
        assertThat(v.reason()).isEqualTo("boom");
        assertThat(RecordCodec.read(buf, second, v)).isEqualTo(RecordCodec.Status.OK);
        assertThat(v.kind()).isEqualTo(RecordCodec.CANCEL);
        assertThat(v.version()).isEqualTo(7);
    }

    @Test
    void versionsRecord_roundTrips_andOneNamingAKey_isCorrupt() {
        ByteBuffer buf = RecordCodec.buffer(64);
        int len = RecordCodec.putVersions(buf, 1L << 40);
        int second = buf.position();
        RecordCodec.putMarker(buf, RecordCodec.VERSIONS, 9, RecordCodec.utf8("a"), RecordCodec.utf8("b"));
        buf.flip();
        RecordView v = new RecordView();
        assertThat(RecordCodec.read(buf, 0, v)).isEqualTo(RecordCodec.Status.OK);
        assertThat(v.kind()).isEqualTo(RecordCodec.VERSIONS);
        assertThat(v.version()).isEqualTo(1L << 40);
        assertThat(v.length()).isEqualTo(len);
        assertThat(RecordCodec.read(buf, second, v)).isEqualTo(RecordCodec.Status.CORRUPT);
    }

    @Test
    void zeroTail_isTorn_andGarbageTail_isCorrupt() {
        ByteBuffer zeros = ByteBuffer.allocate(40);
        assertThat(RecordCodec.read(zeros, 0, new RecordView())).isEqualTo(RecordCodec.Status.TORN);
        ByteBuffer garbage = ByteBuffer.allocate(40);
        garbage.put(0, (byte) 0x7F).put(3, (byte) 1);
        assertThat(RecordCodec.read(garbage, 0, new RecordView())).isEqualTo(RecordCodec.Status.CORRUPT);
    }
}
