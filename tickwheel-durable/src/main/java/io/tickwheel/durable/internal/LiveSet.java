package io.tickwheel.durable.internal;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * The compact in-memory index of the pending timeouts: for each, only what is needed to find it,
 * fence it and know when it is due, never its strings or payload (those stay in the journal and are
 * read back when the timeout comes near). Per timeout: 128-bit key hash, journal location, version,
 * deadline (ms), record length and flags in parallel primitive arrays (45 bytes), an open-addressing
 * table of {@code int} slots (at most 3/4 full), and one {@code int} in its deadline's one-second
 * bucket: about 55 bytes, against about 200 for a wheel node plus its timeout object, strings and
 * payload. Slots are stable (a freed slot goes to a free list), so buckets and compaction can name
 * them.
 *
 * <p>Undelivered timeouts sit in per-second buckets; {@link #pollDue} takes them in deadline order.
 * A bucket may name a slot that was removed or rescheduled since: {@code pollDue} skips a slot whose
 * deadline bucket differs or that is already delivered.
 *
 * <p>Threading: not thread-safe; confined by the owning {@code JournalStore}'s lock.
 */
public final class LiveSet {

    /** Held in the timer's wheel (delivered through the sink). */
    public static final byte DELIVERED = 1;
    /** Claimed by a handler run that has not recorded its outcome. */
    public static final byte CLAIMED = 2;
    /** A cancel or replacement is being written: claims are refused. */
    public static final byte DOOMED = 4;

    private static final int FREE = 0;

    private long[] hash1 = new long[0];
    private long[] hash2 = new long[0];
    private long[] loc = new long[0];
    private long[] version = new long[0];
    private long[] deadline = new long[0];
    private int[] length = new int[0];
    private byte[] flags = new byte[0];
    private int[] freeSlots = new int[16];
    private int freeCount;
    private int used;
    private int[] table = new int[16];
    private int size;
    private int delivered;
    private long liveBytes;
    /**
     * Every live undelivered slot has an entry in its deadline's bucket ({@link #pollDue} relies on
     * it). A reschedule adds an entry and leaves the old one behind until its bucket is drained, so a
     * key renewed often with a long deadline would grow the buckets by one entry per renewal, without
     * bound; {@link #file} rebuilds them from the slots instead (see there).
     */
    private final DeadlineBuckets buckets = new DeadlineBuckets();

    /**
     * Finds a key's slot.
     *
     * @param h1 first hash half
     * @param h2 second hash half
     * @return the slot, or -1
     */
    public int find(final long h1, final long h2) {
        int mask = table.length - 1;
        for (int i = home(h1, mask);; i = (i + 1) & mask) {
            int s = table[i] - 1;
            if (s < 0) {
                return -1;
            }
            if (hash1[s] == h1 && hash2[s] == h2) {
                return s;
            }
        }
    }

    /**
     * Inserts or replaces a key's pending timeout; the new incarnation is undelivered and unclaimed.
     *
     * @param h1        first hash half
     * @param h2        second hash half
     * @param location  see {@link JournalLocation}
     * @param ver       version
     * @param deadlineMs deadline in epoch ms
     * @param len       record length
     * @return the slot
     */
    public int put(final long h1, final long h2, final long location, final long ver, final long deadlineMs,
            final int len) {
        int s = find(h1, h2);
        if (s < 0) {
            s = newSlot();
            if ((size + 1) * 4L > table.length * 3L) {
                rehash(table.length * 2);
            }
            int mask = table.length - 1;
            int i = home(h1, mask);
            while (table[i] != FREE) {
                i = (i + 1) & mask;
            }
            table[i] = s + 1;
            size++;
            hash1[s] = h1;
            hash2[s] = h2;
        } else {
            liveBytes -= length[s];
            if ((flags[s] & DELIVERED) != 0) {
                delivered--;
            }
        }
        loc[s] = location;
        version[s] = ver;
        deadline[s] = deadlineMs;
        length[s] = len;
        flags[s] = 0;
        liveBytes += len;
        file(s);
        return s;
    }

    /**
     * Removes a slot.
     *
     * @param slot a live slot
     */
    public void remove(final int slot) {
        int mask = table.length - 1;
        int i = home(hash1[slot], mask);
        while (table[i] != slot + 1) {
            i = (i + 1) & mask;
        }
        table[i] = FREE;
        // Backward-shift deletion keeps every probe chain unbroken without tombstones.
        for (int j = (i + 1) & mask; table[j] != FREE; j = (j + 1) & mask) {
            int k = home(hash1[table[j] - 1], mask);
            boolean movable = i <= j ? (k <= i || k > j) : (k <= i && k > j);
            if (movable) {
                table[i] = table[j];
                table[j] = FREE;
                i = j;
            }
        }
        size--;
        liveBytes -= length[slot];
        if ((flags[slot] & DELIVERED) != 0) {
            delivered--;
        }
        flags[slot] = 0;
        version[slot] = -1;
        deadline[slot] = Long.MIN_VALUE;
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
        }
        freeSlots[freeCount++] = slot;
    }

    /**
     * Takes undelivered timeouts due up to {@code horizonMs} in deadline-bucket order, marking them
     * delivered, until {@code max} are delivered in all.
     *
     * @param horizonMs  the latest deadline to take (epoch ms)
     * @param maxDelivered the cap on delivered timeouts
     * @param each       gets each slot taken; it must not call back into this set
     */
    public void pollDue(final long horizonMs, final int maxDelivered, final IntConsumer each) {
        if (delivered >= maxDelivered) {
            return;
        }
        buckets.drain(horizonMs, (s, bucket) -> {
            // Stale entries (rescheduled, removed, already delivered) are dropped as they are met.
            if (version[s] >= 0 && (flags[s] & DELIVERED) == 0 && DeadlineBuckets.bucketOf(deadline[s]) == bucket) {
                flags[s] = (byte) (flags[s] | DELIVERED);
                delivered++;
                each.accept(s);
            }
            return delivered < maxDelivered;
        });
    }

    /**
     * Marks a slot delivered by its writer (a new timeout due soon goes straight to the sink).
     *
     * @param slot the slot
     */
    public void markDelivered(final int slot) {
        if ((flags[slot] & DELIVERED) == 0) {
            flags[slot] = (byte) (flags[slot] | DELIVERED);
            delivered++;
        }
    }

    /**
     * Puts a delivered slot back among the undelivered (its record could not be read).
     *
     * @param slot the slot
     */
    public void undeliver(final int slot) {
        if ((flags[slot] & DELIVERED) != 0) {
            flags[slot] = (byte) (flags[slot] & ~DELIVERED);
            delivered--;
        }
        file(slot);
    }

    /**
     * Files a live undelivered slot under its deadline's bucket. Once stale entries could outnumber
     * the slots, it rebuilds the buckets from the slots instead (which files this one too): that
     * keeps the buckets within a constant factor of the slots, at O(slots) once per more than that
     * many additions, so O(1) per addition.
     */
    private void file(final int slot) {
        if (buckets.entries() < 2 * used + 64) {
            buckets.add(slot, deadline[slot]);
            return;
        }
        buckets.clear();
        for (int s = 0; s < used; s++) {
            if (version[s] >= 0 && (flags[s] & DELIVERED) == 0) {
                buckets.add(s, deadline[s]);
            }
        }
    }

    /**
     * Entries in the deadline buckets, stale ones included; for tests of their bound.
     *
     * @return the count
     */
    int bucketEntries() {
        return buckets.entries();
    }

    /**
     * How many timeouts are delivered (held by the timer).
     *
     * @return the count
     */
    public int delivered() {
        return delivered;
    }

    /**
     * Sets or clears a flag.
     *
     * @param slot the slot
     * @param flag {@link #CLAIMED} or {@link #DOOMED}
     * @param on   set or clear
     */
    public void flag(final int slot, final byte flag, final boolean on) {
        flags[slot] = (byte) (on ? flags[slot] | flag : flags[slot] & ~flag);
    }

    /**
     * Reads the flags.
     *
     * @param slot the slot
     * @return the flag bits
     */
    public byte flags(final int slot) {
        return flags[slot];
    }

    /**
     * The slot's version.
     *
     * @param slot the slot
     * @return the version
     */
    public long version(final int slot) {
        return version[slot];
    }

    /**
     * The slot's journal location.
     *
     * @param slot the slot
     * @return see {@link JournalLocation}
     */
    public long location(final int slot) {
        return loc[slot];
    }

    /**
     * Moves a slot's record (compaction).
     *
     * @param slot     the slot
     * @param location the new location
     */
    public void relocate(final int slot, final long location) {
        loc[slot] = location;
    }

    /**
     * The slot's record length.
     *
     * @param slot the slot
     * @return bytes
     */
    public int length(final int slot) {
        return length[slot];
    }

    /**
     * The slot's deadline.
     *
     * @param slot the slot
     * @return epoch ms
     */
    public long deadlineMillis(final int slot) {
        return deadline[slot];
    }

    /**
     * How many slots exist, live or free (the bound for {@link #version} scans).
     *
     * @return the slot count
     */
    public int slots() {
        return used;
    }

    /**
     * The pending timeouts.
     *
     * @return the count
     */
    public int size() {
        return size;
    }

    /**
     * The bytes their records take in the journal.
     *
     * @return bytes
     */
    public long liveBytes() {
        return liveBytes;
    }

    /** Gives back the growth slack of the arrays (after recovery, which grows them by half at a time). */
    public void trim() {
        int n = used + (used >> 4) + 16;
        if (n < loc.length) {
            hash1 = Arrays.copyOf(hash1, n);
            hash2 = Arrays.copyOf(hash2, n);
            loc = Arrays.copyOf(loc, n);
            version = Arrays.copyOf(version, n);
            deadline = Arrays.copyOf(deadline, n);
            length = Arrays.copyOf(length, n);
            flags = Arrays.copyOf(flags, n);
        }
    }

    private int newSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        if (used == loc.length) {
            int n = Math.max(16, used + (used >> 1));
            hash1 = Arrays.copyOf(hash1, n);
            hash2 = Arrays.copyOf(hash2, n);
            loc = Arrays.copyOf(loc, n);
            version = Arrays.copyOf(version, n);
            deadline = Arrays.copyOf(deadline, n);
            length = Arrays.copyOf(length, n);
            flags = Arrays.copyOf(flags, n);
        }
        return used++;
    }

    private void rehash(final int capacity) {
        int[] old = table;
        table = new int[capacity];
        int mask = capacity - 1;
        for (int s : old) {
            if (s != FREE) {
                int i = home(hash1[s - 1], mask);
                while (table[i] != FREE) {
                    i = (i + 1) & mask;
                }
                table[i] = s;
            }
        }
    }

    private static int home(final long h1, final int mask) {
        return (int) (h1 ^ (h1 >>> 32)) & mask;
    }
}
