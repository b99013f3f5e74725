package io.sluice.audit;

import java.util.Map;
import java.util.TreeMap;

/**
 * A set of Kafka offsets as bits: one bit per offset, in chunks of 4,096 offsets created only where offsets are, so
 * ten million contiguous offsets take about 1.3 MB and a sparse (compacted) partition only what it holds.
 *
 * <p>Threading: not thread-safe; one thread at a time.
 */
final class OffsetSet {

    private static final int CHUNK_SHIFT = 12;
    private static final long CHUNK_MASK = (1L << CHUNK_SHIFT) - 1;
    private static final int WORDS = 1 << (CHUNK_SHIFT - 6);

    private final TreeMap<Long, long[]> chunks = new TreeMap<>();
    private long size;
    // the chunk written last: rows arrive mostly in offset order, so this spares most map look-ups
    private long lastKey = -1;
    private long[] lastChunk;

    /** Adds the offset; false when it was there already. */
    boolean add(long offset) {
        requireOffset(offset);
        long[] words = chunkFor(offset >>> CHUNK_SHIFT);
        int bit = (int) (offset & CHUNK_MASK);
        long mask = 1L << bit;
        if ((words[bit >>> 6] & mask) != 0) {
            return false;
        }
        words[bit >>> 6] |= mask;
        size++;
        return true;
    }

    /** Adds every offset from {@code first} to {@code last}, both included. */
    void addRange(long first, long last) {
        requireOffset(first);
        long o = first;
        while (o <= last) {
            long key = o >>> CHUNK_SHIFT;
            long[] words = chunkFor(key);
            long chunkLast = Math.min(last, ((key + 1) << CHUNK_SHIFT) - 1);
            int from = (int) (o & CHUNK_MASK);
            int to = (int) (chunkLast & CHUNK_MASK);
            for (int w = from >>> 6; w <= to >>> 6; w++) {
                long mask = -1L;
                if (w == from >>> 6) {
                    mask &= -1L << from; // the shift distance is taken modulo 64: the bit within the word
                }
                if (w == to >>> 6) {
                    mask &= -1L >>> (63 - (to & 63));
                }
                size += Long.bitCount(mask & ~words[w]);
                words[w] |= mask;
            }
            o = chunkLast + 1;
        }
    }

    boolean contains(long offset) {
        if (offset < 0) {
            return false;
        }
        long[] words = chunks.get(offset >>> CHUNK_SHIFT);
        int bit = (int) (offset & CHUNK_MASK);
        return words != null && (words[bit >>> 6] & (1L << bit)) != 0;
    }

    long size() {
        return size;
    }

    /** Chunks of 4,096 offsets allocated: the memory the set takes, in 512-byte units. */
    int chunks() {
        return chunks.size();
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The lowest offset at or above {@code from} in the set, or -1. */
    long next(long from) {
        long start = Math.max(0, from);
        for (Map.Entry<Long, long[]> e : chunks.tailMap(start >>> CHUNK_SHIFT, true).entrySet()) {
            long base = e.getKey() << CHUNK_SHIFT;
            long[] words = e.getValue();
            int bit = base >= start ? 0 : (int) (start - base);
            int w = bit >>> 6;
            long word = words[w] & (-1L << bit);
            while (true) {
                if (word != 0) {
                    return base + ((long) w << 6) + Long.numberOfTrailingZeros(word);
                }
                if (++w == WORDS) {
                    break;
                }
                word = words[w];
            }
        }
        return -1;
    }

    /** The lowest offset at or above {@code from} not in the set. */
    long nextAbsent(long from) {
        long o = Math.max(0, from);
        while (true) {
            long[] words = chunks.get(o >>> CHUNK_SHIFT);
            if (words == null) {
                return o;
            }
            int bit = (int) (o & CHUNK_MASK);
            int w = bit >>> 6;
            long word = ~words[w] & (-1L << bit);
            while (word == 0 && ++w < WORDS) {
                word = ~words[w];
            }
            if (word != 0) {
                return ((o >>> CHUNK_SHIFT) << CHUNK_SHIFT) + ((long) w << 6) + Long.numberOfTrailingZeros(word);
            }
            o = ((o >>> CHUNK_SHIFT) + 1) << CHUNK_SHIFT;
        }
    }

    /** Calls {@code visitor} with each run of consecutive offsets, lowest first. */
    void forEachRun(RunVisitor visitor) {
        for (long o = next(0); o >= 0; o = next(o + 1)) {
            long last = nextAbsent(o) - 1;
            visitor.run(o, last);
            o = last;
        }
    }

    @FunctionalInterface
    interface RunVisitor {
        void run(long first, long last);
    }

    /** Adds every offset of {@code other}. */
    void addAll(OffsetSet other) {
        addAll(other, null);
    }

    /** Adds every offset of {@code other}; those this set had already go into {@code alreadyHere} as well. */
    void addAll(OffsetSet other, OffsetSet alreadyHere) {
        for (Map.Entry<Long, long[]> e : other.chunks.entrySet()) {
            long[] mine = chunkFor(e.getKey());
            long[] theirs = e.getValue();
            long[] again = null;
            for (int w = 0; w < WORDS; w++) {
                long both = mine[w] & theirs[w];
                if (both != 0 && alreadyHere != null) {
                    if (again == null) {
                        again = alreadyHere.chunkFor(e.getKey());
                    }
                    alreadyHere.size += Long.bitCount(both & ~again[w]);
                    again[w] |= both;
                }
                size += Long.bitCount(theirs[w] & ~mine[w]);
                mine[w] |= theirs[w];
            }
        }
    }

    /** The offsets in this set and in {@code other}. */
    OffsetSet and(OffsetSet other) {
        OffsetSet result = new OffsetSet();
        for (Map.Entry<Long, long[]> e : chunks.entrySet()) {
            long[] theirs = other.chunks.get(e.getKey());
            if (theirs != null) {
                result.combine(e.getKey(), e.getValue(), theirs, false);
            }
        }
        return result;
    }

    /** The offsets in this set but not in {@code other}. */
    OffsetSet andNot(OffsetSet other) {
        OffsetSet result = new OffsetSet();
        for (Map.Entry<Long, long[]> e : chunks.entrySet()) {
            long[] theirs = other.chunks.get(e.getKey());
            result.combine(e.getKey(), e.getValue(), theirs == null ? new long[WORDS] : theirs, true);
        }
        return result;
    }

    /** The offsets of this set from {@code first} to {@code last}, both included. */
    OffsetSet between(long first, long last) {
        OffsetSet result = new OffsetSet();
        if (last < first) {
            return result;
        }
        for (long o = next(first); o >= 0 && o <= last; o = next(o + 1)) {
            long end = Math.min(nextAbsent(o) - 1, last);
            result.addRange(o, end);
            o = end;
        }
        return result;
    }

    private void combine(long key, long[] mine, long[] theirs, boolean not) {
        long[] words = null;
        for (int w = 0; w < WORDS; w++) {
            long word = not ? mine[w] & ~theirs[w] : mine[w] & theirs[w];
            if (word != 0) {
                if (words == null) {
                    words = chunkFor(key);
                }
                words[w] = word;
                size += Long.bitCount(word);
            }
        }
    }

    private long[] chunkFor(long key) {
        if (key != lastKey) {
            lastChunk = chunks.computeIfAbsent(key, k -> new long[WORDS]);
            lastKey = key;
        }
        return lastChunk;
    }

    private static void requireOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("a Kafka offset is never negative: " + offset);
        }
    }
}
