package io.sluice.producer;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Latencies in nanoseconds, counted in log-spaced buckets: exact below 16 ns, then 16 buckets per power of two, so a
 * percentile is at most 1/16 (6.25%) above the true value, in 960 counters whatever the spread.
 *
 * <p>Threading: safe for concurrent use; a percentile read while values are recorded counts some of them.
 */
final class LatencyHistogram {

    private static final int SUB_BUCKET_BITS = 4;
    private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    /** Exact buckets for 0..15, then 16 for each power of two from 2^4 to 2^62. */
    static final int BUCKETS = SUB_BUCKETS + (63 - SUB_BUCKET_BITS) * SUB_BUCKETS;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final AtomicLong max = new AtomicLong();

    void record(long nanos) {
        long value = Math.max(0, nanos);
        counts.incrementAndGet(bucketOf(value));
        max.accumulateAndGet(value, Math::max);
    }

    /**
     * The latency that {@code fraction} (0 to 1) of the recorded values are at or below: the top of the bucket that
     * holds that rank, never above the largest value recorded; 0 when nothing was recorded.
     */
    long percentile(double fraction) {
        if (fraction < 0 || fraction > 1) {
            throw new IllegalArgumentException("a percentile is a fraction from 0 to 1, not " + fraction);
        }
        long[] snapshot = new long[BUCKETS];
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            snapshot[i] = counts.get(i);
            total += snapshot[i];
        }
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(fraction * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += snapshot[i];
            if (seen >= rank) {
                return Math.min(highestIn(i), max.get());
            }
        }
        return max.get();
    }

    long max() {
        return max.get();
    }

    static int bucketOf(long value) {
        if (value < SUB_BUCKETS) {
            return (int) value;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(value); // 4..62
        int shift = exponent - SUB_BUCKET_BITS;
        int sub = (int) (value >>> shift) - SUB_BUCKETS; // the 4 bits below the leading one
        return SUB_BUCKETS + shift * SUB_BUCKETS + sub;
    }

    /** The largest value that falls in {@code bucket}. */
    static long highestIn(int bucket) {
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        int shift = (bucket - SUB_BUCKETS) / SUB_BUCKETS;
        int sub = (bucket - SUB_BUCKETS) % SUB_BUCKETS;
        long lowest = (long) (SUB_BUCKETS + sub) << shift;
        return lowest + (1L << shift) - 1;
    }
}
