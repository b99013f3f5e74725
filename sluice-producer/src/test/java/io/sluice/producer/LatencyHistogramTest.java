package io.sluice.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void everyValueFallsInABucketWhoseTopIsAtMostASixteenthAboveIt() {
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            long value = (random.nextLong() >>> 1) >>> random.nextInt(63); // any non-negative magnitude
            long top = LatencyHistogram.highestIn(LatencyHistogram.bucketOf(value));
            assertTrue(top >= value, value + " lies above its bucket's top " + top);
            assertTrue(top - value <= value / 16, value + " lies too far below its bucket's top " + top);
        }
        assertEquals(LatencyHistogram.BUCKETS - 1, LatencyHistogram.bucketOf(Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, LatencyHistogram.highestIn(LatencyHistogram.BUCKETS - 1));
    }

    @Test
    void bucketsFollowEachOtherWithoutGapsOrOverlaps() {
        for (int bucket = 1; bucket < LatencyHistogram.BUCKETS; bucket++) {
            long first = LatencyHistogram.highestIn(bucket - 1) + 1;
            assertEquals(bucket, LatencyHistogram.bucketOf(first), "the value after bucket " + (bucket - 1));
        }
    }

    @Test
    void percentilesOfAUniformSpreadAreWithinTheBucketPrecision() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (long micros = 1; micros <= 10_000; micros++) {
            histogram.record(micros * 1_000);
        }
        assertWithin(5_000_000, histogram.percentile(0.5));
        assertWithin(9_900_000, histogram.percentile(0.99));
        assertEquals(10_000_000, histogram.percentile(1.0));
        assertEquals(10_000_000, histogram.max());
        assertWithin(1_000, histogram.percentile(0.0));
    }

    @Test
    void smallValuesAreExactAndNoPercentileExceedsTheLargestValue() {
        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(3);
        histogram.record(7);
        histogram.record(-5); // a clock step backwards counts as zero
        assertEquals(3, histogram.percentile(0.5));
        assertEquals(7, histogram.percentile(0.99));

        LatencyHistogram one = new LatencyHistogram();
        one.record(1_000_003);
        assertEquals(1_000_003, one.percentile(0.5), "capped at the largest value, not the bucket's top");
    }

    @Test
    void anEmptyHistogramSaysZeroAndAPercentileIsAFraction() {
        LatencyHistogram histogram = new LatencyHistogram();
        assertEquals(0, histogram.percentile(0.99));
        assertEquals(0, histogram.max());
        assertThrows(IllegalArgumentException.class, () -> histogram.percentile(99));
    }

    private static void assertWithin(long expected, long actual) {
        assertTrue(actual >= expected && actual <= expected + expected / 16,
                actual + " is not within 1/16 above " + expected);
    }
}
