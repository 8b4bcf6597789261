package io.tickwheel.durable.internal;

import java.nio.ByteBuffer;

/**
 * A 128-bit hash of a timeout's (type, key), which the {@link LiveSet} keeps instead of the strings.
 * Two independently seeded 64-bit hashes: two different keys among 10^8 collide with probability
 * about 10^16 / 2^129, far below the disk's own undetected error rate, so the index treats equal
 * hashes as equal keys and never reads the disk to compare strings.
 *
 * <p>Threading: immutable (static methods only).
 */
public final class KeyHash {

    static final long SEED1 = 0x9E3779B97F4A7C15L;
    static final long SEED2 = 0xC2B2AE3D27D4EB4FL;

    private KeyHash() {
    }

    /**
     * Hashes type and key bytes with one seed.
     *
     * @param type UTF-8 type
     * @param key  UTF-8 key
     * @param seed {@link #SEED1} or {@link #SEED2}
     * @return 64 bits
     */
    public static long hash(final byte[] type, final byte[] key, final long seed) {
        return hash(ByteBuffer.wrap(type), 0, type.length, ByteBuffer.wrap(key), 0, key.length, seed);
    }

    static long hash(final ByteBuffer buf, final int typeAt, final int typeLength, final int keyAt,
            final int keyLength, final long seed) {
        return hash(buf, typeAt, typeLength, buf, keyAt, keyLength, seed);
    }

    private static long hash(final ByteBuffer tb, final int typeAt, final int typeLength, final ByteBuffer kb,
            final int keyAt, final int keyLength, final long seed) {
        long h = seed ^ (typeLength * 0xFF51AFD7ED558CCDL) ^ keyLength;
        h = mixBytes(h, tb, typeAt, typeLength, seed);
        h = mix(h ^ 0x2545F4914F6CDD1DL);
        h = mixBytes(h, kb, keyAt, keyLength, seed);
        return mix(h);
    }

    private static long mixBytes(final long start, final ByteBuffer b, final int at, final int length,
            final long seed) {
        long h = start;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            h = mix(h ^ b.getLong(at + i) * seed) * 0x9FB21C651E98DF25L;
        }
        long tail = 0;
        for (; i < length; i++) {
            tail = tail << 8 | (b.get(at + i) & 0xFF);
        }
        return mix(h ^ (tail + length) * seed);
    }

    private static long mix(final long x) {
        long z = x;
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }
}
